// Signing in through the demo's local OpenID Provider (oidc-provider on 127.0.0.1): the button on
// the custom sign-in page, the provider's login and consent pages, and back in the app.
import { expect, test, type Page } from "@playwright/test"
import { ALICE, CAROL, screenshot, sessionCookie } from "./support"

/** The provider's origin: the port after the demo's (playwright.config.ts). */
const OP_ORIGIN = new RegExp(
  `^http://127\\.0\\.0\\.1:${Number(process.env.E2E_PORT_BASE ?? 4173) + 1}/`,
)
/** The check cookies of an OAuth sign-in, which a callback removes. */
const CHECKS = ["authjs.state", "authjs.nonce", "authjs.pkce.code_verifier"]

/** From the custom sign-in page to the provider's login page. */
async function startSignIn(page: Page) {
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await page.getByRole("button", { name: "Continue with Local OpenID Provider" }).click()
  await expect(page).toHaveURL(OP_ORIGIN)
  await expect(page.locator("input[name=login]")).toBeVisible()
}

/** Submits a login on the provider's login page (which takes any password). */
async function logIn(page: Page, login: string) {
  await page.locator("input[name=login]").fill(login)
  await page.locator("input[name=password]").fill("any")
  await page.locator("button[type=submit]").first().click()
}

/** Signs in at the provider's login page and allows access on its consent page. */
async function logInAndAllow(page: Page, login: string) {
  await logIn(page, login)
  await page.getByRole("button", { name: "Continue" }).click()
}

test("signs in with the local OpenID Provider and signs out", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await page.getByRole("button", { name: "Continue with Local OpenID Provider" }).click()

  // The provider's login page (its own origin), then its consent page.
  await expect(page).toHaveURL(OP_ORIGIN)
  await screenshot(page, "local-op-login")
  await page.locator("input[name=login]").fill(ALICE.username)
  await page.locator("input[name=password]").fill("any")
  await page.locator("button[type=submit]").first().click()
  await expect(page).toHaveURL(OP_ORIGIN)
  await page.locator("button[type=submit]").first().click()

  // Back in the app, on the page the user first asked for, signed in as the provider's user.
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
  expect(await sessionCookie(page.context())).toBeDefined()
  const checks = (await page.context().cookies()).filter((cookie) => CHECKS.includes(cookie.name))
  expect(checks, "the check cookies are gone after the callback").toEqual([])

  await page.getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByTestId("signed-out")).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
  await page.goto("/protected")
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fprotected/)
})

test("signs in with the built-in Cognito provider (its issuer: the local OpenID Provider)", async ({
  page,
}) => {
  // Carol: no other sign-in holds her address (Alice's and Bob's belong to other accounts, and
  // linking by address is refused).
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await page.getByRole("button", { name: "Continue with Cognito" }).click()
  await expect(page).toHaveURL(OP_ORIGIN)
  await page.locator("input[name=login]").fill(CAROL.username)
  await page.locator("input[name=password]").fill("any")
  await page.locator("button[type=submit]").first().click()
  await expect(page).toHaveURL(OP_ORIGIN)
  await page.locator("button[type=submit]").first().click()

  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(CAROL.name)
  expect(await sessionCookie(page.context())).toBeDefined()
})

test("a refusal at the provider shows the demo's error page, with no session", async ({ page }) => {
  await startSignIn(page)
  await logIn(page, ALICE.username)
  // The consent page's "Cancel" aborts the interaction: the provider answers access_denied.
  await page.getByRole("button", { name: "Cancel" }).click()
  await expect(page).toHaveURL("/error?error=OAuthCallbackError&code=access_denied")
  await expect(page.getByRole("heading", { level: 1, name: "Sign-in cancelled" })).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
})

test("an unknown login at the provider is asked again, with the logins that exist", async ({
  page,
}) => {
  await startSignIn(page)
  await logIn(page, "mallory")

  // Still the provider's login page, saying why and which logins there are; no server error.
  await expect(page).toHaveURL(OP_ORIGIN)
  const alert = page.getByRole("alert")
  await expect(alert).toContainText("mallory")
  await expect(alert).toContainText(/alice, bob or carol/)
  await expect(page.locator("body")).not.toContainText(/server_error|went wrong/i)

  // The same sign-in goes on with a login that exists.
  await logInAndAllow(page, ALICE.username)
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
})

test("after an unknown login is given up, the next sign-in in that browser works", async ({
  page,
}) => {
  await startSignIn(page)
  // The provider has answered the login (whatever it answered) before the user leaves.
  const answered = page.waitForResponse(
    (response) => response.request().method() === "POST" && OP_ORIGIN.test(response.url()),
  )
  await logIn(page, "nobody")
  await answered
  await page.waitForLoadState()

  // The user leaves the provider's page and starts again from the app, cookies kept.
  await startSignIn(page)
  await logInAndAllow(page, ALICE.username)
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
  expect(await sessionCookie(page.context())).toBeDefined()
})

test("Cancel on the provider's login page returns to the app with access_denied", async ({
  page,
}) => {
  await startSignIn(page)
  const callback = page.waitForRequest((request) =>
    new URL(request.url()).pathname.endsWith("/auth/callback/local-op"),
  )
  await page.getByRole("button", { name: "Cancel" }).click()

  // The provider's answer, as a real provider's: the app's callback with the error and the
  // sign-in's state (which the app checks before it believes the error).
  const params = new URL((await callback).url()).searchParams
  expect(params.get("error")).toBe("access_denied")
  expect(params.get("state")).toBeTruthy()
  expect(params.has("code")).toBe(false)

  // The app's answer to a refusal at the provider: the demo's error page with the error's code.
  await expect(page).toHaveURL("/error?error=OAuthCallbackError&code=access_denied")
  expect(await sessionCookie(page.context())).toBeUndefined()
  const checks = (await page.context().cookies()).filter((cookie) => CHECKS.includes(cookie.name))
  expect(checks, "the check cookies are gone after the callback").toEqual([])
})
