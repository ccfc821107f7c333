import { expect, test, type Browser, type Page } from "@playwright/test"
import { demoLook, expectNoHorizontalOverflow, expectSharedLook, type Look } from "./look"
import { ALICE, screenshot, signInByApi } from "./support"

// Named pictures of the demo's main screens, in e2e/screenshots/, to look at after a run. Each
// also checks that the page is not wider than the viewport (no sideways scrolling); those of the
// second part, every built-in page and the demo's main, error and 404 pages, also that the page
// has the demo's look (look.ts).

async function openCustomSignIn(page: Page) {
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await expect(page.getByTestId("signin-form")).toBeVisible()
  await expect(page.getByTestId("email-form")).toBeVisible()
}

for (const [size, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 375, height: 812 }],
] as const) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport })

    test(`home signed out (${size})`, async ({ page }) => {
      await page.goto("/")
      await expect(page.getByTestId("signed-out")).toBeVisible()
      await expectNoHorizontalOverflow(page)
      await screenshot(page, `home-signed-out-${size}`)
    })

    test(`the custom sign-in page (${size})`, async ({ page }) => {
      await openCustomSignIn(page)
      await expectNoHorizontalOverflow(page)
      await screenshot(page, `signin-${size}`)
    })

    test(`the custom sign-in page with errors (${size})`, async ({ page }) => {
      await openCustomSignIn(page)
      const form = page.getByTestId("signin-form")
      await form.getByLabel("Username").fill(ALICE.username)
      await form.getByLabel("Password").fill("not-the-password")
      await form.getByRole("button", { name: "Sign in", exact: true }).click()
      await expect(page.getByTestId("signin-error")).toBeVisible()
      await expectNoHorizontalOverflow(page)
      await screenshot(page, `signin-errors-${size}`)
    })

    test(`home signed in (${size})`, async ({ page }) => {
      await signInByApi(page, ALICE)
      await page.goto("/")
      await expect(page.getByTestId("user-name")).toHaveText(ALICE.name)
      await expectNoHorizontalOverflow(page)
      await screenshot(page, `home-signed-in-${size}`)
    })

    test(`the built-in sign-in page (${size})`, async ({ page }) => {
      await page.goto("/auth/signin?callbackUrl=%2Fprotected")
      await expect(
        page.getByRole("button", { name: "Sign in with Username and password" }),
      ).toBeVisible()
      await expectNoHorizontalOverflow(page)
      await screenshot(page, `builtin-signin-${size}`)
    })
  })
}

test.describe("in dark mode", () => {
  test.use({ colorScheme: "dark" })

  test("the custom sign-in page and home signed in", async ({ page }) => {
    await openCustomSignIn(page)
    await screenshot(page, "signin-dark")
    await signInByApi(page, ALICE)
    await page.goto("/")
    await expect(page.getByTestId("user-name")).toHaveText(ALICE.name)
    await screenshot(page, "home-signed-in-dark")
    await page.goto("/auth/signin")
    await screenshot(page, "builtin-signin-dark")
  })
})

/** The demo's look in a colour scheme, read in a context of its own. */
async function referenceLook(browser: Browser, colorScheme: "light" | "dark"): Promise<Look> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    colorScheme,
  })
  try {
    return await demoLook(await context.newPage())
  } finally {
    await context.close()
  }
}

/** A page to picture: where it is, whether it needs a session, and what shows it is ready. */
interface Shot {
  name: string
  path: string
  signedIn?: boolean
  /** The page's level-1 heading. */
  heading: string | RegExp
  /** The HTTP status, when not 200. */
  status?: number
}

const SHOTS: Shot[] = [
  // The built-in pages, rendered by @latch/core (the error page is the demo's: pages.error).
  { name: "builtin-signin", path: "/auth/signin?callbackUrl=%2Fprotected", heading: "Sign in" },
  {
    name: "builtin-signin-error",
    path: "/auth/signin?error=CredentialsSignin&code=credentials",
    heading: "Sign in",
  },
  { name: "builtin-verify-request", path: "/auth/verify-request", heading: "Check your email" },
  {
    name: "builtin-continue",
    path: "/auth/callback/nodemailer?token=not-a-real-token&email=alice%40example.com",
    heading: "Continue signing in",
  },
  { name: "builtin-signout", path: "/auth/signout", signedIn: true, heading: "Sign out" },
  // The demo's own pages.
  { name: "home", path: "/", heading: "You are not signed in" },
  { name: "about", path: "/about", heading: "About" },
  { name: "protected", path: "/protected", signedIn: true, heading: /./ },
  { name: "profile", path: "/profile", signedIn: true, heading: /./ },
  {
    name: "error-verification",
    path: "/error?error=Verification",
    heading: "This sign-in link no longer works",
  },
  {
    name: "error-cancelled",
    path: "/error?error=OAuthCallbackError&code=access_denied",
    heading: "Sign-in cancelled",
  },
  {
    name: "error-configuration",
    path: "/error?error=Configuration",
    heading: "Something is wrong on our side",
  },
  { name: "not-found", path: "/no-such-page", heading: "Page not found", status: 404 },
]

/**
 * Every page at both widths in light colours, and in dark at the desktop width; E2E_FULL=1 (the
 * full run, `pnpm --filter latch-e2e run test:full`) adds dark at the phone width. The dark
 * colours are the same stylesheet's at either width, so the test command checks them once.
 */
const COMBINATIONS = [
  ["light", "desktop"],
  ["light", "phone"],
  ["dark", "desktop"],
  ...(process.env.E2E_FULL === "1" ? [["dark", "phone"] as const] : []),
] as const
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
}

for (const [colorScheme, size] of COMBINATIONS) {
  const viewport = VIEWPORTS[size]
  test.describe(`every page, ${colorScheme}, at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport, colorScheme })
    let reference: Look
    test.beforeAll(async ({ browser }) => {
      reference = await referenceLook(browser, colorScheme)
    })

    for (const shot of SHOTS) {
      test(`${shot.name} (${colorScheme}, ${size})`, async ({ page }) => {
        if (shot.signedIn) await signInByApi(page, ALICE)
        const response = await page.goto(shot.path)
        expect(response?.status()).toBe(shot.status ?? 200)
        await expect(page.getByRole("heading", { level: 1, name: shot.heading })).toBeVisible()
        await expectNoHorizontalOverflow(page)
        await expectSharedLook(page, reference)
        await screenshot(page, `look-${shot.name}-${colorScheme}-${size}`)
      })
    }
  })
}
