// Password accounts (`Password()`) in Chromium, on the demo's own pages: sign up on /signup and
// confirm the address by the mailed link (the button of the page it opens), sign out and in again with the password, reset a
// forgotten password by another link (/new-password), change it on /account/password, and list
// and remove sign-in methods on the profile. The mails are read on /dev/mailbox. Sign-up and
// reset also without JavaScript: plain form posts and 303 redirects.
import { expect, test, type Page } from "@playwright/test"
import {
  databaseSessions,
  newAccount,
  random,
  pressLinkButton,
  screenshot,
  sessionCookie,
  type Account,
} from "./support"

/** The subjects of the Password provider's mails. */
const SUBJECTS = {
  confirm: /^Confirm your address for localhost:\d+$/,
  reset: /^Reset your password on localhost:\d+$/,
  changed: /^Your password on localhost:\d+ was changed$/,
}

/**
 * The newest mail to `address` with this subject, on /dev/mailbox. The page is loaded again
 * until it is there (the sink stores a mail a moment after the SMTP transaction): no script
 * needed, so it works with JavaScript off too.
 */
async function findMail(page: Page, address: string, subject: RegExp) {
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

/** Opens the mail's link to `path` (the mail's other links are the site's pages). */
async function followMailedLink(page: Page, address: string, subject: RegExp, path: string) {
  const mail = await findMail(page, address, subject)
  const link = mail.locator(`a[data-testid="mail-link"][href*="${path}"]`)
  await expect(link).toHaveCount(1)
  const href = (await link.getAttribute("href"))!
  await link.click()
  return href
}

/**
 * Confirms the address of a sign-up as its owner does: opens the mailed link, which shows the
 * "Confirm your address" page (a mail scanner's visit spends nothing), and presses its button.
 * Returns the link.
 */
async function confirmByMailedLink(page: Page, address: string) {
  const href = await followMailedLink(page, address, SUBJECTS.confirm, "/auth/verify-email/")
  await expect(page).toHaveURL(/\/auth\/verify-email\/password\?token=/)
  await expect(page.getByText(address)).toBeVisible()
  await pressLinkButton(page, "confirmEmail")
  return href
}

/** Fills in and posts the demo's sign-up form; lands on the "check your email" page. */
async function submitSignUp(page: Page, account: Account, callbackUrl = "/") {
  await page.goto(`/signup?${new URLSearchParams({ callbackUrl })}`)
  const form = page.getByTestId("signup-form")
  await form.getByLabel("Name").fill(account.name)
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Create my account" }).click()
  await expect(page).toHaveURL(/\/auth\/verify-request\?provider=password&type=signup/)
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
}

/** Posts the sign-up form with a password the server refuses: the message, the form kept. */
async function submitSignUpRefused(page: Page, account: Account) {
  await page.goto("/signup")
  const form = page.getByTestId("signup-form")
  await form.getByLabel("Name").fill(account.name)
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Create my account" }).click()
  await expect(page.getByTestId("signup-error")).toContainText("(code: password_like_identifier)")
  await expect(form.getByLabel("Name")).toHaveValue(account.name)
  await expect(form.getByLabel("Email address")).toHaveValue(account.email)
  await expect(form.getByLabel("Password")).toHaveValue("")
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** A confirmed account, signed in: sign-up, then the mailed link. */
async function signUpAndConfirm(page: Page, account: Account = newAccount("pw", "Pat")) {
  await submitSignUp(page, account, "/profile")
  await confirmByMailedLink(page, account.email)
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  return account
}

/** Posts the password form of the demo's sign-in page. */
async function submitPasswordSignIn(page: Page, email: string, password: string) {
  const form = page.getByTestId("password-form")
  await form.getByLabel("Email address").fill(email)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in with email and password" }).click()
}

/** Signs in with the password from /signin, and ends on `callbackUrl`. */
async function signInWithPassword(page: Page, account: Account, callbackUrl = "/protected") {
  await page.goto(`/signin?${new URLSearchParams({ callbackUrl })}`)
  await submitPasswordSignIn(page, account.email, account.password)
  await expect(page).toHaveURL(callbackUrl)
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  expect(await sessionCookie(page.context())).toBeDefined()
}

/** A refused password sign-in: the inline message with its code, and no session. */
async function expectSignInRefused(page: Page, account: Account, password: string) {
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await submitPasswordSignIn(page, account.email, password)
  await expect(page.getByTestId("password-error")).toContainText("(code: credentials)")
  await expect(page.getByTestId("password-form").getByLabel("Email address")).toHaveValue(
    account.email,
  )
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** The header's sign-out button (a form: it works without JavaScript too). */
async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByTestId("signed-out")).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** Asks for a reset link from /signin's "Forgot your password?" link. */
async function requestReset(page: Page, email: string) {
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await page.getByRole("link", { name: "Forgot your password?" }).click()
  await expect(page).toHaveURL(/\/reset-password\?callbackUrl=%2Fprotected$/)
  const form = page.getByTestId("reset-form")
  await form.getByLabel("Email address").fill(email)
  await form.getByRole("button", { name: "Email me a reset link" }).click()
  await expect(page).toHaveURL(/\/auth\/verify-request\?provider=password&type=reset/)
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
}

/** Follows the reset link to /new-password and sets `password`; signed in on /protected. */
async function setNewPassword(page: Page, account: Account, password: string) {
  const href = await followMailedLink(page, account.email, SUBJECTS.reset, "/auth/new-password/")
  // Latch checks the link, then hands its token to the demo's page.
  await expect(page).toHaveURL(/\/new-password\?token=/)
  const form = page.getByTestId("new-password-form")
  await form.getByLabel("New password").fill(password)
  await form.getByRole("button", { name: "Set the new password" }).click()
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  expect(await sessionCookie(page.context())).toBeDefined()
  return href
}

test("signs up, confirms the address by the mailed link, then signs out and in with the password", async ({
  page,
  browser,
}) => {
  const account = newAccount("pw", "Pat")
  await page.goto("/signin?callbackUrl=%2Fprotected")
  // The password account's link (the page also offers "Create an account with a passkey").
  await page.getByRole("link", { name: "Create an account", exact: true }).click()
  await expect(page).toHaveURL("/signup?callbackUrl=%2Fprotected")
  await screenshot(page, "password-signup")
  await submitSignUp(page, account, "/protected")
  expect(await sessionCookie(page.context())).toBeUndefined()

  // No account before the link is followed: the password opens nothing yet.
  await expectSignInRefused(page, account, account.password)

  const href = await confirmByMailedLink(page, account.email)
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("protected-user")).toHaveText(account.name)
  await expect(page.getByTestId("header-user")).toHaveText(account.name)

  // In another browser the link's page asks for the password chosen at sign-up (a stranger's
  // sign-up, followed by the address's owner or a mail scanner, creates nothing); and the link
  // works once: with the password, it is found used up.
  const other = await browser.newContext()
  const stranger = await other.newPage()
  await stranger.goto(href)
  await expect(stranger.getByRole("heading", { name: "Confirm your address" })).toBeVisible()
  const create = stranger.getByRole("button", { name: "Confirm and create the account" })
  await stranger.getByLabel("Password").fill("not the password")
  await create.click()
  await expect(stranger.getByRole("alert")).toContainText("That is not the password.")
  expect(await sessionCookie(other)).toBeUndefined()
  await stranger.getByLabel("Password").fill(account.password)
  await create.click()
  await expect(stranger).toHaveURL(/\/error\?error=Verification$/)
  expect(await sessionCookie(other)).toBeUndefined()
  await other.close()

  await signOut(page)
  await expectSignInRefused(page, account, "not the password")
  await signInWithPassword(page, account)
})

test("a password the policy refuses is shown inline, and nothing is mailed", async ({ page }) => {
  const account = newAccount("pw", "Pat")
  await page.goto("/signup")
  const form = page.getByTestId("signup-form")
  const password = form.getByLabel("Password")
  // The browser's own check (`minlength`) would stop the form first: post it without it.
  await password.evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"))
  await form.getByLabel("Name").fill(account.name)
  await form.getByLabel("Email address").fill(account.email)
  await password.fill("short")
  await form.getByRole("button", { name: "Create my account" }).click()
  const error = page.getByTestId("signup-error")
  await expect(error).toContainText("at least 8 characters")
  await expect(error).toContainText("(code: password_too_short)")
  await expect(page).toHaveURL("/signup")
  await expect(form.getByLabel("Email address")).toHaveValue(account.email)

  await page.goto("/dev/mailbox")
  await expect(page.getByRole("article", { name: `Mail to ${account.email}` })).toHaveCount(0)
})

test("forgot password: the mailed link sets a new one and signs in; the old one stops working", async ({
  page,
}) => {
  const account = await signUpAndConfirm(page)
  await signOut(page)

  await requestReset(page, account.email)
  const href = await followMailedLink(page, account.email, SUBJECTS.reset, "/auth/new-password/")
  await expect(page).toHaveURL(/\/new-password\?token=/)
  await screenshot(page, "password-new-password")
  // A password the policy refuses: the message inline, the link still usable.
  const form = page.getByTestId("new-password-form")
  await form
    .getByLabel("New password")
    .evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"))
  await form.getByLabel("New password").fill("short")
  await form.getByRole("button", { name: "Set the new password" }).click()
  await expect(page.getByTestId("new-password-error")).toContainText("(code: password_too_short)")
  expect(await sessionCookie(page.context())).toBeUndefined()

  const password = `battery staple ${random()}`
  await form.getByLabel("New password").fill(password)
  await form.getByRole("button", { name: "Set the new password" }).click()
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  // The owner is told, by mail.
  await findMail(page, account.email, SUBJECTS.changed)

  // The link is used up.
  await page.goto(href)
  await expect(page).toHaveURL(/\/error\?error=Verification$/)

  await page.goto("/")
  await signOut(page)
  await expectSignInRefused(page, account, account.password)
  await signInWithPassword(page, { ...account, password })
})

test("changes the password: the current one again or a wrong current one is refused inline, the right one works", async ({
  page,
  browser,
}) => {
  const account = await signUpAndConfirm(page)
  // The same account signed in on another device.
  const other = await browser.newContext()
  const device = await other.newPage()
  await signInWithPassword(device, account)

  await page.goto("/profile")
  await page
    .locator('[data-testid="sign-in-method"][data-type="password"]')
    .getByRole("link", { name: "Change" })
    .click()
  await expect(page).toHaveURL("/account/password")
  const form = page.getByTestId("change-password-form")
  const password = `battery staple ${random()}`
  const error = page.getByTestId("change-password-error")
  // The current password as the new one: nothing to change, and no notice to send.
  await form.getByLabel("Current password").fill(account.password)
  await form.getByLabel("New password").fill(account.password)
  await form.getByRole("button", { name: "Change my password" }).click()
  await expect(error).toContainText("This is your current password: choose a new one.")
  await expect(error).toContainText("(code: same_password)")

  await form.getByLabel("Current password").fill("not the password")
  await form.getByLabel("New password").fill(password)
  await form.getByRole("button", { name: "Change my password" }).click()
  await expect(error).toContainText("The current password is not right.")
  await expect(error).toContainText("(code: wrong_password)")

  await form.getByLabel("Current password").fill(account.password)
  await form.getByLabel("New password").fill(password)
  await form.getByRole("button", { name: "Change my password" }).click()
  await expect(page.getByTestId("password-changed")).toBeVisible()
  await expect(page.getByTestId("change-password-error")).toHaveCount(0)
  // Changed: neither password stays in the form.
  await expect(form.getByLabel("Current password")).toHaveValue("")
  await expect(form.getByLabel("New password")).toHaveValue("")
  await screenshot(page, "password-changed")
  await findMail(page, account.email, SUBJECTS.changed)

  // This device stays signed in. With database sessions, the other device is signed out; a JWT
  // session lives in its cookie alone, which the server cannot end.
  await page.goto("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  await device.goto("/protected")
  if (databaseSessions()) await expect(device).toHaveURL(/\/signin\?/)
  else await expect(device).toHaveURL("/protected")
  await other.close()

  await signOut(page)
  await expectSignInRefused(page, account, account.password)
  await signInWithPassword(page, { ...account, password })
})

test("the profile lists the sign-in methods; a passkey is linked, then the password removed", async ({
  page,
  context,
}) => {
  // A virtual platform authenticator (Chrome DevTools Protocol), as in passkey.spec.ts; without
  // passkey autofill, so that /signin does not sign in with the passkey by itself.
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: async () => false,
    })
  })

  const account = await signUpAndConfirm(page)
  const methods = page.getByTestId("sign-in-method")
  const method = (type: string) => methods.and(page.locator(`[data-type="${type}"]`))
  const password = method("password")
  const email = method("email")
  const passkey = method("webauthn")
  // The password, and email links to the confirmed address (no remove button: it is the
  // account's address, which any email link opens).
  await expect(methods).toHaveCount(2)
  await expect(email).toContainText(`links mailed to ${account.email}`)
  await expect(password.getByRole("button", { name: /^Remove/ })).toBeVisible()
  await expect(email.getByRole("button")).toHaveCount(0)
  // Buttons that link another account: a sign-in posted while signed in.
  await expect(page.getByRole("button", { name: "Link Local OpenID Provider" })).toBeVisible()

  await page.getByTestId("add-passkey").click()
  await expect(page.getByTestId("passkey-added")).toBeVisible()
  await expect(passkey).toHaveCount(1)
  await expect(methods).toHaveCount(3)
  await screenshot(page, "password-sign-in-methods")

  // The same list in a second tab, which will be out of date.
  const stale = await context.newPage()
  await stale.goto("/profile")

  await password.getByRole("button", { name: /^Remove/ }).click()
  await expect(page.getByTestId("method-removed")).toBeVisible()
  await expect(password).toHaveCount(0)
  await expect(methods).toHaveCount(2)
  await expect(page.getByTestId("set-password")).toBeVisible()

  // Removing it again from the old list: refused inline, as a method no longer there.
  await stale
    .locator('[data-testid="sign-in-method"][data-type="password"]')
    .getByRole("button", { name: /^Remove/ })
    .click()
  await expect(stale.getByTestId("methods-error")).toContainText("(code: not_found)")
  await stale.close()

  // The password opens nothing any more; the passkey does.
  await signOut(page)
  await expectSignInRefused(page, account, account.password)
  await page.goto("/signin?callbackUrl=%2Fprofile")
  await page.getByTestId("passkey-signin").click()
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("profile-name")).toHaveText(account.name)

  // Remove the passkey too: email links to the address are left, never removable.
  await passkey.getByRole("button", { name: /^Remove/ }).click()
  await expect(page.getByTestId("method-removed")).toBeVisible()
  await expect(methods).toHaveCount(1)
  await expect(methods.getByRole("button")).toHaveCount(0)
})

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false })

  test("signs up and confirms the address by the mailed link", async ({ page }) => {
    const account = newAccount("pw", "Pat")
    // A password the server refuses (the address itself): the form comes back, filled in.
    await submitSignUpRefused(page, { ...account, password: account.email })
    await submitSignUp(page, account, "/protected")
    await confirmByMailedLink(page, account.email)
    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("header-user")).toHaveText(account.name)

    await signOut(page)
    await signInWithPassword(page, account)
  })

  test("resets a forgotten password by the mailed link", async ({ page }) => {
    const account = newAccount("pw", "Pat")
    await submitSignUp(page, account)
    await confirmByMailedLink(page, account.email)
    await expect(page.getByTestId("header-user")).toHaveText(account.name)
    await signOut(page)

    await requestReset(page, account.email)
    const password = `battery staple ${random()}`
    await setNewPassword(page, account, password)
    await signOut(page)
    await expectSignInRefused(page, account, account.password)
    await signInWithPassword(page, { ...account, password })
  })

  test("changes the password after the current one again and a wrong current one", async ({
    page,
  }) => {
    const account = newAccount("pw", "Pat")
    await submitSignUp(page, account, "/account/password")
    await confirmByMailedLink(page, account.email)
    await expect(page).toHaveURL("/account/password")
    const form = page.getByTestId("change-password-form")
    const password = `battery staple ${random()}`
    await form.getByLabel("Current password").fill(account.password)
    await form.getByLabel("New password").fill(account.password)
    await form.getByRole("button", { name: "Change my password" }).click()
    await expect(page.getByTestId("change-password-error")).toContainText("(code: same_password)")
    await form.getByLabel("Current password").fill("not the password")
    await form.getByLabel("New password").fill(password)
    await form.getByRole("button", { name: "Change my password" }).click()
    await expect(page.getByTestId("change-password-error")).toContainText("(code: wrong_password)")
    await form.getByLabel("Current password").fill(account.password)
    await form.getByLabel("New password").fill(password)
    await form.getByRole("button", { name: "Change my password" }).click()
    await expect(page).toHaveURL("/account/password?changed")
    await expect(page.getByTestId("password-changed")).toBeVisible()
  })
})
