// One look: the built-in pages (/auth/…) and the demo's own pages share fonts, colours, buttons,
// fields and card, light and dark; a refused sign-in at the OpenID Provider, /auth/error and a
// 404 land on pages in that look, with words for what happened; the demo has an icon; the
// header's links fit a phone.
import { expect, test, type Page } from "@playwright/test"
import { demoLook, expectNoHorizontalOverflow, expectSharedLook } from "./look"
import { ALICE, BOB, screenshot, sessionCookie, signInByApi } from "./support"

/** The local OpenID Provider's issuer: the port after the demo's (playwright.config.ts). */
const OP_ISSUER = `http://127.0.0.1:${Number(process.env.E2E_PORT_BASE ?? 4173) + 1}`

/** The button of the built-in sign-in page that starts a sign-in at the local provider. */
const localOpButton = (page: Page) =>
  page.getByRole("button", { name: /Local OpenID Provider/ }).first()

/** Signs in at the local provider as `login` (any password), and agrees to share the account. */
async function signInAtProvider(page: Page, login: string) {
  const submit = page.locator("button[type=submit]", { hasNotText: /cancel/i }).first()
  await expect(page).toHaveURL((url) => url.href.startsWith(OP_ISSUER))
  await page.locator("input[name=login]").fill(login)
  await page.locator("input[name=password]").fill("any")
  await submit.click()
  // Past the login form: the consent page, when the provider asks, or back in the app.
  await expect(page.locator("input[name=login]")).toHaveCount(0)
  if (page.url().startsWith(OP_ISSUER)) await submit.click()
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} colours`, () => {
    test.use({ colorScheme })

    test("the built-in pages look like the demo's", async ({ page }) => {
      const reference = await demoLook(page)
      for (const path of ["/auth/signin", "/auth/verify-request"]) {
        await page.goto(path)
        await expect(page.locator("main h1")).toBeVisible()
        await test.step(path, () => expectSharedLook(page, reference))
      }
      await signInByApi(page, ALICE)
      await page.goto("/auth/signout")
      await expect(page.getByRole("heading", { name: "Sign out" })).toBeVisible()
      await test.step("/auth/signout", () => expectSharedLook(page, reference))
    })
  })
}

test("a cancel at the OpenID Provider lands on the demo's error page, with its code", async ({
  page,
}) => {
  await page.goto("/auth/signin?callbackUrl=%2Fprotected")
  const authorization = page.waitForRequest((request) => {
    const url = new URL(request.url())
    return url.href.startsWith(OP_ISSUER) && url.searchParams.has("state")
  })
  await localOpButton(page).click()
  const state = new URL((await authorization).url()).searchParams.get("state")
  expect(state, "the authorization request carries a state").toBeTruthy()
  // What the provider's "Cancel" sends back: the callback with access_denied, its state and iss.
  const query = new URLSearchParams({ error: "access_denied", state: state!, iss: OP_ISSUER })
  await page.goto(`/auth/callback/local-op?${query}`)

  await expect(page).toHaveURL("/error?error=OAuthCallbackError&code=access_denied")
  await expect(page.getByRole("heading", { level: 1, name: "Sign-in cancelled" })).toBeVisible()
  await expect(page.getByText("You cancelled at the provider")).toBeVisible()
  await expect(page.getByTestId("error-code")).toHaveText("access_denied")
  await expect(page.getByRole("link", { name: "Sign in again" })).toHaveAttribute("href", "/signin")
  await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
  await expectSharedLook(page, await demoLook(page))
  await screenshot(page, "error-cancelled")
})

test("linking an account that belongs to another user lands on the demo's error page", async ({
  browser,
  baseURL,
}) => {
  // Alice signs in at the provider once: its alice is linked to her (by her verified address).
  const alice = await browser.newContext({ baseURL })
  const first = await alice.newPage()
  await first.goto("/auth/signin")
  await localOpButton(first).click()
  await signInAtProvider(first, ALICE.username)
  await expect(first.getByTestId("header-user")).toHaveText(ALICE.name)
  await alice.close()

  // Bob, signed in, tries to link the provider's alice to his account.
  const bob = await browser.newContext({ baseURL })
  const page = await bob.newPage()
  await signInByApi(page, BOB)
  await page.goto("/auth/signin")
  await localOpButton(page).click()
  await signInAtProvider(page, ALICE.username)

  await expect(page).toHaveURL("/error?error=OAuthAccountNotLinked")
  await expect(
    page.getByRole("heading", { level: 1, name: "That account belongs to another user" }),
  ).toBeVisible()
  await expect(page.getByText("already linked to another user of this site")).toBeVisible()
  await expect(page.getByTestId("error-code")).toHaveText("OAuthAccountNotLinked")
  // Still Bob, and only Bob.
  await expect(page.getByTestId("header-user")).toHaveText(BOB.name)
  await screenshot(page, "error-account-not-linked")
  await bob.close()
})

test("/auth/error sends each error to the demo's error page, with its own words", async ({
  page,
}) => {
  const cases = [
    ["Verification", "This sign-in link no longer works", "Ask for a new link"],
    ["AccessDenied", "Access denied", "Sign in with another account"],
    ["Configuration", "Something is wrong on our side", "This is not something you did"],
  ] as const
  for (const [error, heading, advice] of cases) {
    await page.goto(`/auth/error?error=${error}`)
    await expect(page).toHaveURL(`/error?error=${error}`)
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible()
    await expect(page.getByText(advice)).toBeVisible()
    await expect(page.getByTestId("error-code")).toHaveText(error)
  }
  // An unknown value: general words, and the value is shown nowhere.
  const evil = `<img src=x onerror=alert(1)>Unknown`
  await page.goto(`/auth/error?error=${encodeURIComponent(evil)}`)
  await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible()
  await expect(page.getByTestId("error-code")).toHaveCount(0)
  expect(await page.content()).not.toContain("onerror")
  await expect(page.locator("main img")).toHaveCount(0)
})

test("an unknown address shows the demo's 404 page in its look", async ({ page }) => {
  const response = await page.goto("/no-such-page")
  expect(response?.status()).toBe(404)
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible()
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible()
  await expectSharedLook(page, await demoLook(page))
})

test("the demo has an icon, and the built-in pages ask for none it lacks", async ({ page }) => {
  const missing: string[] = []
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(response.url())
  })
  const icon = await page.request.get("/favicon.ico")
  expect(icon.status()).toBe(200)
  // An ICO file: reserved 0, type 1.
  expect([...(await icon.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0])
  for (const path of ["/auth/signin", "/auth/verify-request", "/"]) {
    await page.goto(path)
    // An icon of the page's own: the browser has no reason to ask for /favicon.ico.
    const href = await page.locator("link[rel=icon]").getAttribute("href")
    expect(href, `${path} names its icon`).toBeTruthy()
    if (href!.startsWith("data:")) continue
    expect((await page.request.get(href!)).status(), `${path}'s icon is there`).toBe(200)
  }
  expect(missing, "no request of the pages was answered 404").toEqual([])
})

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } })

  test("every link of the header is on the screen", async ({ page }) => {
    await page.goto("/")
    const nav = page.getByRole("navigation", { name: "Main" })
    for (const name of ["Home", "Protected", "Admin", "Profile", "Remote", "About"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeInViewport({ ratio: 1 })
    }
    await nav.getByRole("link", { name: "About", exact: true }).click()
    await expect(page).toHaveURL("/about")
    await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeInViewport()
    await expectNoHorizontalOverflow(page)
  })
})
