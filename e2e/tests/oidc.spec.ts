// Signing in through the demo's local OpenID Provider (oidc-provider on 127.0.0.1): the button on
// the custom sign-in page, the provider's login and consent pages, and back in the app.
import { expect, test } from "@playwright/test"
import { ALICE, CAROL, screenshot, sessionCookie } from "./support"

/** The provider's origin: the port after the demo's (playwright.config.ts). */
const OP_ORIGIN = new RegExp(
  `^http://127\\.0\\.0\\.1:${Number(process.env.E2E_PORT_BASE ?? 4173) + 1}/`,
)

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
  const checks = (await page.context().cookies()).filter((cookie) =>
    ["authjs.state", "authjs.nonce", "authjs.pkce.code_verifier"].includes(cookie.name),
  )
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

test("a refusal at the provider shows an error on the sign-in page, with no session", async ({
  page,
}) => {
  await page.goto("/signin")
  await page.getByRole("button", { name: "Continue with Local OpenID Provider" }).click()
  await page.locator("input[name=login]").fill(ALICE.username)
  await page.locator("input[name=password]").fill("any")
  await page.locator("button[type=submit]").first().click()
  // The consent page's "cancel" aborts the interaction: the provider answers access_denied.
  const cancel = page.getByRole("link", { name: /cancel/i })
  await cancel.click()
  await expect(page).toHaveURL(/\/auth\/signin\?.*error=OAuthCallbackError/)
  await expect(page.getByRole("alert")).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
})
