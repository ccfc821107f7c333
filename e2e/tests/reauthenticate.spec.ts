// "Confirm it is you" in Chromium, on the demo's own page (/confirm, `pages.reauthenticate`): a
// change to how a user signs in — adding a passkey, removing the password, turning two-factor
// authentication on, changing the password of a user who has it — more than five minutes after
// this browser signed in first asks the user to confirm it is them, changes nothing until then,
// and comes back to where they were. Each change mails the owner a notice (/dev/mailbox). Adding
// a passkey keeps the session the user had. With the password, a passkey, a code of the
// authenticator app or a code mailed to the address; the password and the app's code also
// without JavaScript.
//
// "Five minutes after the sign-in" is not waited for: the window is the life of the sealed proof
// cookie that every sign-in (and every confirmation) sets, `latch.proof`, so deleting that cookie
// from the browser is what the browser sees once the window is over (`expireProof`).
//
// Each test signs up an account of its own (as two-factor.spec.ts does, within the demo's limit
// of sign-up mails per client), or signs in by an email link to a new address.
import { expect, test, type Page } from "@playwright/test"
import { Authenticator } from "./totp"
import {
  confirmWithPassword,
  expectConfirmStep,
  expireProof,
  findMail,
  signUp,
  SUBJECTS,
} from "./accounts"
import {
  addAuthenticator,
  databaseSessions,
  newAccount,
  pressLinkButton,
  screenshot,
  SESSION_COOKIE,
  sessionCookie,
} from "./support"

/** Posts the code form of the step (a user with two-factor authentication on). */
async function confirmWithCode(page: Page, code: string) {
  const form = page.getByTestId("confirm-code-form")
  await form.getByLabel("Code from your authenticator app").fill(code)
  await form.getByRole("button", { name: "Confirm with the code" }).click()
}

/** The step's refusal, by its code. */
async function expectRefused(page: Page, code: string) {
  await expect(page.getByTestId("confirm-error")).toContainText(`(code: ${code})`)
  await expect(page).toHaveURL(/\/confirm/)
}

/**
 * Turns two-factor authentication on from /settings/two-factor (this browser's proof is fresh):
 * the key into the test's authenticator, its code, then back on the profile.
 */
async function turnOnTwoFactor(page: Page): Promise<Authenticator> {
  await page.goto("/settings/two-factor")
  const key = (await page.getByTestId("two-factor-key").textContent())!
  const app = new Authenticator(key)
  const form = page.getByTestId("setup-form")
  await form.getByLabel("Code from your authenticator app").fill(await app.code())
  await form.getByRole("button", { name: "Turn it on" }).click()
  await expect(page.getByTestId("two-factor-enabled")).toBeVisible()
  await page.getByTestId("continue").click()
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("two-factor-status")).toHaveAttribute("data-enabled", "true")
  return app
}

test.describe("confirm it is you", () => {
  // A sign-up by mail, then the step and the change; a code may wait for the next 30-s step.
  test.slow()

  test("adding a passkey asks for the password first; the session stays the one it was", async ({
    page,
    context,
    browser,
  }) => {
    await addAuthenticator(page)
    const account = await signUp(page)
    const database = databaseSessions()
    const sessions = page.getByTestId("session")
    const listed = database ? await sessions.count() : 0
    const cookies = (await context.cookies()).filter((c) => c.name.startsWith(SESSION_COOKIE))
    const before = (await sessionCookie(context))!.value

    await expireProof(context)
    await page.goto("/profile")
    await expect(page.getByTestId("changes-need-confirmation")).toBeVisible()
    // Linking another account confirms first too, before the trip to the provider.
    await expect(page.getByRole("link", { name: "Link Local OpenID Provider" })).toHaveAttribute(
      "href",
      /^\/confirm\?callbackUrl=/,
    )
    await page.getByTestId("add-passkey").click()
    await expectConfirmStep(page, "/profile")
    await expect(page.getByTestId("confirm-code-form")).toHaveCount(0)
    await screenshot(page, "reauthenticate")
    await confirmWithPassword(page, "not the password")
    await expectRefused(page, "wrong_password")
    await expect(page.getByTestId("confirm-error")).toContainText("That password is not right.")
    await confirmWithPassword(page, account.password)

    // Back on the profile: nothing was added while the step waited; now it is.
    await expect(page).toHaveURL(/\/profile(#passkeys)?$/)
    await expect(page.getByTestId("changes-open")).toBeVisible()
    await expect(page.getByTestId("no-passkeys")).toBeVisible()
    await expect(page.getByRole("button", { name: "Link Local OpenID Provider" })).toBeVisible()
    await page.getByTestId("add-passkey").click()
    await expect(page.getByTestId("passkey-added")).toBeVisible()
    await expect(page.getByTestId("passkeys").getByRole("listitem")).toHaveCount(1)

    // The same session: a database session goes on under the same cookie, and the list of
    // devices gains no entry.
    if (database) {
      expect((await sessionCookie(context))!.value).toBe(before)
      await expect(sessions).toHaveCount(listed)
    }
    // The cookie from before still opens the profile, in another browser.
    const other = await browser.newContext()
    await other.addCookies(cookies)
    const device = await other.newPage()
    await device.goto("/profile")
    await expect(device).toHaveURL("/profile")
    await expect(device.getByTestId("profile-name")).toHaveText(account.name)
    await other.close()

    // The owner is told.
    await findMail(page, account.email, SUBJECTS.passkeyAdded)
    await screenshot(page, "reauthenticate-notices")

    // Removing the password is a change too: confirmed with the new passkey this time.
    await expireProof(context)
    await page.goto("/profile")
    const password = page.locator('[data-testid="sign-in-method"][data-type="password"]')
    await password.getByRole("button", { name: /^Remove/ }).click()
    await expectConfirmStep(page, "/profile")
    await page.getByTestId("confirm-passkey").click()
    // Back where the form was: the password is still there (the page does not say it was
    // removed), and may be removed now.
    await expect(page).toHaveURL("/profile")
    await expect(page.getByTestId("method-removed")).toHaveCount(0)
    await expect(password).toHaveCount(1)
    await password.getByRole("button", { name: /^Remove/ }).click()
    await expect(page.getByTestId("method-removed")).toBeVisible()
    await expect(password).toHaveCount(0)
    await findMail(page, account.email, SUBJECTS.passwordRemoved)
  })

  test("a user with two-factor authentication confirms with a code of the app, not the password", async ({
    page,
    context,
  }) => {
    await addAuthenticator(page)
    const account = await signUp(page)
    const app = await turnOnTwoFactor(page)

    await expireProof(context)
    await page.goto("/profile")
    await page.getByTestId("add-passkey").click()
    await expectConfirmStep(page, "/profile")
    await expect(page.getByTestId("confirm-lead")).toContainText("with your second factor")
    // The session stands for the password already: a thief holding it may know the password
    // too. Only the code (or a passkey, which the account has none of) is offered.
    await expect(page.getByTestId("confirm-password-form")).toHaveCount(0)
    await expect(page.getByTestId("send-code-form")).toHaveCount(0)
    await screenshot(page, "reauthenticate-code")
    await confirmWithCode(page, app.wrongCode())
    await expectRefused(page, "wrong_code")
    await confirmWithCode(page, await app.code())

    await expect(page).toHaveURL(/\/profile(#passkeys)?$/)
    await expect(page.getByTestId("no-passkeys")).toBeVisible()
    await page.getByTestId("add-passkey").click()
    await expect(page.getByTestId("passkey-added")).toBeVisible()
    await expect(page.getByTestId("passkeys").getByRole("listitem")).toHaveCount(1)

    await findMail(page, account.email, SUBJECTS.twoFactorOn)
    await findMail(page, account.email, SUBJECTS.passkeyAdded)
  })

  test("an account without a password confirms with a code mailed to its address", async ({
    page,
    context,
  }) => {
    // Signed in by an email link: the account has the address, and nothing else.
    const { email } = newAccount("reauth-link", "Em")
    await page.goto("/signin?callbackUrl=%2Fprofile")
    const signIn = page.getByTestId("email-form")
    await signIn.getByLabel("Email address").fill(email)
    await signIn.getByRole("button", { name: "Email me a sign-in link" }).click()
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
    const link = await findMail(page, email, SUBJECTS.signIn)
    await link.locator('a[data-testid="mail-link"][href*="/auth/callback/"]').click()
    await pressLinkButton(page)
    await expect(page).toHaveURL("/profile")

    await expireProof(context)
    await page.getByTestId("turn-on-two-factor").click()
    await expectConfirmStep(page, "/settings/two-factor")
    await expect(page.getByTestId("confirm-password-form")).toHaveCount(0)
    const send = page.getByTestId("send-code-form")
    await expect(send).toContainText(email)
    await send.getByRole("button", { name: "Email me a code" }).click()
    // The step again, now asking for the code; still on the way back to the setup.
    await expect(page).toHaveURL(/[?&]sent=1/)
    await expectConfirmStep(page, "/settings/two-factor")
    await expect(page.getByTestId("code-sent")).toContainText(email)
    const step = page.url()

    // The code is in the mail's subject (and its text).
    const mail = await findMail(page, email, SUBJECTS.code)
    const code = (await mail.locator("header strong").textContent())!.trim().slice(-6)
    await page.goto(step)
    const form = page.getByTestId("confirm-email-form")
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    await form.getByLabel("Code from the email").fill(wrong)
    await form.getByRole("button", { name: "Confirm with the emailed code" }).click()
    await expectRefused(page, "wrong_code")
    await form.getByLabel("Code from the email").fill(code)
    await form.getByRole("button", { name: "Confirm with the emailed code" }).click()

    // The setup page, with a key to scan now that the user has confirmed it is them.
    await expect(page).toHaveURL("/settings/two-factor")
    await expect(page.getByTestId("two-factor-key")).toBeVisible()
  })
})

test.describe("confirm it is you without JavaScript", () => {
  test.use({ javaScriptEnabled: false })
  test.slow()

  test("turning on two-factor authentication asks for the password before showing a key", async ({
    page,
    context,
  }) => {
    const account = await signUp(page)
    await expireProof(context)
    await page.goto("/profile")
    await page.getByTestId("turn-on-two-factor").click()
    await expectConfirmStep(page, "/settings/two-factor")
    await expect(page.getByTestId("two-factor-key")).toHaveCount(0)
    await confirmWithPassword(page, "not the password")
    await expectRefused(page, "wrong_password")
    await confirmWithPassword(page, account.password)

    await expect(page).toHaveURL("/settings/two-factor")
    await turnOnTwoFactor(page)
    await findMail(page, account.email, SUBJECTS.twoFactorOn)
  })

  test("a user with two-factor authentication confirms with a code before changing the password", async ({
    page,
    context,
  }) => {
    const account = await signUp(page)
    const app = await turnOnTwoFactor(page)

    await expireProof(context)
    await page.goto("/account/password")
    await expectConfirmStep(page, "/account/password")
    await expect(page.getByTestId("confirm-password-form")).toHaveCount(0)
    await confirmWithCode(page, app.wrongCode())
    await expectRefused(page, "wrong_code")
    await confirmWithCode(page, await app.code())

    await expect(page).toHaveURL("/account/password")
    const form = page.getByTestId("change-password-form")
    await form.getByLabel("Current password").fill(account.password)
    await form.getByLabel("New password").fill(`battery staple ${Date.now()}`)
    await form.getByRole("button", { name: "Change my password" }).click()
    await expect(page).toHaveURL("/account/password?changed")
    await expect(page.getByTestId("password-changed")).toBeVisible()
    await findMail(page, account.email, SUBJECTS.passwordChanged)
  })
})
