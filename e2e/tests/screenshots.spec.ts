import { expect, test, type Page } from "@playwright/test"
import { ALICE, screenshot, signInByApi } from "./support"

// Named pictures of the demo's main screens, in e2e/screenshots/, to look at after a run. Each
// also checks that the page is not wider than the viewport (no sideways scrolling).

async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, "the page fits the viewport's width").toBeLessThanOrEqual(innerWidth)
}

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
