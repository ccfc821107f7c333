import { expect, test, type Page } from "@playwright/test"
import { ALICE, screenshot, sessionCookie, signInByApi } from "./support"

// The built-in pages' forms post to SvelteKit, whose origin check (csrf.checkOrigin) refuses a
// POST whose Origin is not the app's: these tests guard against pages that make the browser
// send `Origin: null` (as `Referrer-Policy: no-referrer` does).

/** Clicks a form's submit button; the POST it sends must not be refused. */
async function submit(page: Page, button: string) {
  const post = page.waitForResponse((response) => response.request().method() === "POST")
  await page.getByRole("button", { name: button }).click()
  const response = await post
  expect(response.status(), `POST ${response.url()} is answered with a redirect`).toBe(302)
}

/**
 * The credentials provider's form of the built-in sign-in page: the Password provider's form
 * ("Sign in with Email and password") has a "Password" field too.
 */
const credentialsForm = (page: Page) => page.locator("form", { has: page.getByLabel("Username") })

// The pages @latch/core renders itself under /auth: plain HTML, no script, the demo's theme.
test.describe("the built-in pages", () => {
  test("/auth/signin signs in with credentials and returns to callbackUrl", async ({ page }) => {
    const response = await page.goto("/auth/signin?callbackUrl=%2Fprotected")
    expect(response?.status()).toBe(200)
    await expect(page).toHaveTitle("Sign in")
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible()
    const form = credentialsForm(page)
    await expect(form.getByLabel("Username")).toHaveAttribute("placeholder", "alice")
    await expect(form.getByLabel("Password")).toHaveAttribute("type", "password")
    await screenshot(page, "builtin-signin")

    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await submit(page, "Sign in with Username and password")

    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("protected-title")).toBeVisible()
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
    expect(await sessionCookie(page.context())).toBeDefined()
  })

  test("/auth/signin renders an error from its query as an alert", async ({ page }) => {
    await page.goto(
      "/auth/signin?callbackUrl=%2Fprotected&error=CredentialsSignin&code=credentials",
    )
    const alert = page.getByRole("alert")
    await expect(alert).toContainText("Sign in failed. Check the details you provided are correct.")
    await expect(alert).toContainText("Code: credentials")
    await screenshot(page, "builtin-signin-error")
  })

  test("/auth/signin shows a refused password as an alert", async ({ page }) => {
    await page.goto("/auth/signin?callbackUrl=%2Fprotected")
    const form = credentialsForm(page)
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await submit(page, "Sign in with Username and password")

    await expect(page).toHaveURL(/\/auth\/signin\?.*error=CredentialsSignin/)
    const alert = page.getByRole("alert")
    await expect(alert).toContainText("Sign in failed. Check the details you provided are correct.")
    await expect(alert).toContainText("Code: credentials")
    expect(await sessionCookie(page.context())).toBeUndefined()

    // The error page keeps the callbackUrl: the next try still returns to /protected.
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await submit(page, "Sign in with Username and password")
    await expect(page).toHaveURL("/protected")
  })

  test("/auth/signout asks for confirmation, then signs out", async ({ page }) => {
    await signInByApi(page, ALICE)
    const response = await page.goto("/auth/signout")
    expect(response?.status()).toBe(200)
    await expect(page.getByRole("heading", { level: 1, name: "Sign out" })).toBeVisible()
    await expect(page.getByText("Are you sure you want to sign out?")).toBeVisible()
    // Only a visit: still signed in.
    expect(await sessionCookie(page.context())).toBeDefined()
    await screenshot(page, "builtin-signout")

    await submit(page, "Sign out")
    await expect(page).not.toHaveURL(/\/auth\/signout/)
    expect(await sessionCookie(page.context()), "the session cookie is gone").toBeUndefined()
    const session = await (await page.request.get("/auth/session")).json()
    expect(session).toBeNull()
    await page.goto("/")
    await expect(page.getByTestId("signed-out")).toBeVisible()
  })

  // The demo names its own error page (`pages.error: "/error"`): /auth/error sends there, with
  // the error. The built-in error page's words are checked in packages/core/test/pages.
  test("/auth/error?error=AccessDenied sends to the demo's error page", async ({ page }) => {
    await page.goto("/auth/error?error=AccessDenied")
    await expect(page).toHaveURL("/error?error=AccessDenied")
    await expect(page.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible()
    await expect(page.getByText("This account is not allowed to sign in here.")).toBeVisible()
    await expect(page.getByRole("link", { name: "Sign in again" })).toBeVisible()
    await screenshot(page, "error-access-denied")
  })

  test("/auth/error?error=Configuration sends to the demo's error page", async ({ page }) => {
    await page.goto("/auth/error?error=Configuration")
    await expect(page).toHaveURL("/error?error=Configuration")
    await expect(
      page.getByRole("heading", { level: 1, name: "Something is wrong on our side" }),
    ).toBeVisible()
    await screenshot(page, "error-configuration")

    // The home link goes back to the app.
    await page.getByRole("link", { name: "Go to the home page" }).click()
    await expect(page).toHaveURL("/")
    await expect(page.getByTestId("signed-out")).toBeVisible()
  })

  test("/auth/verify-request tells the user to check their email", async ({ page }) => {
    const response = await page.goto("/auth/verify-request")
    expect(response?.status()).toBe(200)
    await expect(page.getByRole("heading", { level: 1, name: "Check your email" })).toBeVisible()
    await expect(page.getByText("A sign in link has been sent to your email")).toBeVisible()
    await screenshot(page, "builtin-verify-request")
  })
})
