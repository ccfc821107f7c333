// Passkey-first sign-up in Chromium, with a virtual authenticator (CDP `WebAuthn` domain) and
// the demo's real SMTP sink (/dev/mailbox): from the sign-in page, give an address, type the code
// mailed to it on core's page, let the device make the passkey — signed in, with an account that
// has no password — then sign out and sign in with the passkey alone. An address that has an
// account gets the same page, and its owner a mail without a code.
import { expect, test, type Page } from "@playwright/test"
import { addAuthenticator, newAccount, screenshot, sessionCookie } from "./support"

const SIGN_UP = "/auth/passkey-signup/passkey"

/**
 * The newest mail to `address` whose subject matches, on /dev/mailbox (loaded again until the
 * sink has stored it); its subject.
 */
async function subjectOf(page: Page, address: string, subject: RegExp): Promise<string> {
  const heading = page
    .getByRole("article", { name: `Mail to ${address}` })
    .locator("header strong", { hasText: subject })
    .first()
  await expect(async () => {
    await page.goto("/dev/mailbox")
    await expect(heading).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 10_000 })
  return (await heading.textContent()) ?? ""
}

/** Offers no passkey autofill, so that only the buttons start ceremonies. */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: async () => false,
    })
  })
}

async function startSignUp(page: Page, email: string) {
  await page.goto("/signin?callbackUrl=%2Fprofile")
  await page.getByTestId("passkey-signup").click()
  await expect(page).toHaveURL(/\/auth\/passkey-signup\/passkey\?callbackUrl=/)
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible()
  await page.getByLabel("Email").fill(email)
  await page.getByRole("button", { name: "Continue" }).click()
  await expect(page.getByLabel("Code from the email")).toBeVisible()
}

test("creates an account with only a passkey, then signs in with it", async ({ page }) => {
  const { cdp, id } = await addAuthenticator(page)
  await withoutAutofill(page)
  const { email } = newAccount("passkey-signup", "Pat")

  await startSignUp(page, email)
  await screenshot(page, "passkey-signup-code")
  const subject = await subjectOf(page, email, /^Your code to create an account on localhost/)
  const code = /(\d{6})$/.exec(subject)![1]!

  // Back to the page, which remembers the sign-up (its sealed cookie): the code, then the passkey.
  await page.goto(`${SIGN_UP}?callbackUrl=%2Fprofile`)
  await page.getByLabel("Code from the email").fill(code)
  await page.getByRole("button", { name: "Confirm" }).click()
  await expect(page.getByText("is confirmed")).toBeVisible()
  await screenshot(page, "passkey-signup-passkey")
  await page.getByRole("button", { name: "Create a passkey" }).click()

  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("header-user")).toHaveText(email)
  expect(await sessionCookie(page.context())).toBeDefined()
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: id })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" })

  // Signed out, the passkey alone signs in to the new account.
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }),
  ).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await page.getByTestId("passkey-signin").click()
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(email)
})

test("an address with an account gets the same page, and its owner a mail without a code", async ({
  page,
  browser,
}) => {
  await withoutAutofill(page)
  const { email } = newAccount("passkey-signup-taken", "Sam")
  // The first sign-up makes the account…
  const { cdp } = await addAuthenticator(page)
  await startSignUp(page, email)
  const code = /(\d{6})$/.exec(
    await subjectOf(page, email, /^Your code to create an account on localhost/),
  )![1]!
  await page.goto(SIGN_UP)
  await page.getByLabel("Code from the email").fill(code)
  await page.getByRole("button", { name: "Confirm" }).click()
  await page.getByRole("button", { name: "Create a passkey" }).click()
  await expect(page.getByTestId("header-user")).toHaveText(email)
  await cdp.detach()

  // …and someone else asks again for that address, in another browser: the same code page.
  const other = await browser.newContext()
  const stranger = await other.newPage()
  await startSignUp(stranger, email)
  await expect(stranger.getByText(`We sent an email to ${email}`)).toBeVisible()
  await subjectOf(stranger, email, /^Someone tried to create an account on localhost/)
  // Whatever they type, nothing is proven.
  await stranger.goto(SIGN_UP)
  await stranger.getByLabel("Code from the email").fill(code)
  await stranger.getByRole("button", { name: "Confirm" }).click()
  await expect(stranger).toHaveURL(/error=PasskeySignUpError&code=wrong_code/)
  await expect(stranger.getByRole("alert")).toContainText("That code is not right")
  await other.close()
})
