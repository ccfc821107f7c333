// New password accounts for the specs that need an account of their own (not the demo's shared
// users, whom other tests change at the same time), and the demo's mailbox they are confirmed
// through.
import { expect, type BrowserContext, type Page } from "@playwright/test"
import { callbackUrlOf, newAccount, pressLinkButton, type Account } from "./support"

/** The subjects of the mails the specs read: the sign-up's link, and the notices. */
export const SUBJECTS = {
  confirm: /^Confirm your address for localhost:\d+$/,
  signIn: /^Sign in to localhost:\d+$/,
  passkeyAdded: /^A passkey was added to your account on localhost:\d+$/,
  passkeyRemoved: /^A passkey was removed from your account on localhost:\d+$/,
  passwordRemoved: /^Your password was removed on localhost:\d+$/,
  passwordChanged: /^Your password on localhost:\d+ was changed$/,
  twoFactorOn: /^Two-factor authentication was turned on on localhost:\d+$/,
  code: /^Your code to confirm it is you on localhost:\d+: \d{6}$/,
}

/**
 * The newest mail to `address` with this subject, on /dev/mailbox; loaded again until it is
 * there (no script needed). Leaves the page on the mailbox.
 */
export async function findMail(page: Page, address: string, subject: RegExp) {
  const mail = page
    .getByRole("article", { name: `Mail to ${address}` })
    .filter({ has: page.locator("header strong", { hasText: subject }) })
    .first()
  await expect(async () => {
    await page.goto("/dev/mailbox")
    await expect(mail).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 10_000 })
  return mail
}

/** A new password account, confirmed by its mailed link in this browser: signed in, on /profile. */
export async function signUp(page: Page, prefix = "reauth", name = "Rae"): Promise<Account> {
  const account = newAccount(prefix, name)
  await page.goto("/signup?callbackUrl=%2Fprofile")
  const form = page.getByTestId("signup-form")
  await form.getByLabel("Name").fill(account.name)
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Create my account" }).click()
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
  const mail = await findMail(page, account.email, SUBJECTS.confirm)
  await mail.locator('a[data-testid="mail-link"][href*="/auth/verify-email/"]').click()
  await pressLinkButton(page, "confirmEmail")
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  return account
}

/** The proof cookie's name on an http origin (no `__Secure-` prefix). */
export const PROOF_COOKIE = "latch.proof"

/**
 * Ends the window in which this browser may change the account without confirming it is the
 * user: the sign-in set the proof cookie (checked), and it is deleted, as its expiry would.
 */
export async function expireProof(context: BrowserContext) {
  const cookies = await context.cookies()
  expect(
    cookies.some((cookie) => cookie.name === PROOF_COOKIE),
    "the sign-in (or the last confirmation) left its proof",
  ).toBe(true)
  await context.clearCookies({ name: PROOF_COOKIE })
}

/** On the demo's "Confirm it is you", on the way back to `path`; nothing changed yet. */
export async function expectConfirmStep(page: Page, path: string) {
  await expect(page).toHaveURL(/\/confirm\?/)
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible()
  const back = callbackUrlOf(page.url())
  expect(back && new URL(back, page.url()).pathname).toBe(path)
}

/** Posts the password form of the step. */
export async function confirmWithPassword(page: Page, password: string) {
  const form = page.getByTestId("confirm-password-form")
  await form.getByLabel("Your password").fill(password)
  await form.getByRole("button", { name: "Confirm with my password" }).click()
}
