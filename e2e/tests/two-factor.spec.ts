// Two-factor authentication in Chromium, on the demo's own pages: turn it on from the profile
// (/settings/two-factor: the key, a code of it, the ten recovery codes), then sign in by
// password, by email link and with a passkey; give the code on /two-factor, or a recovery code;
// turn it off and make new recovery codes on the profile. The test's own authenticator app
// (totp.ts) reads the key the setup page shows. Also without JavaScript.
//
// Each test signs up a password account of its own (/signup and the mailed link) rather than
// using the demo users: Latch counts 5 wrong codes per account and client per 15 minutes, and an
// account of the test's alone leaves the users of the other specs as they were, whatever happens
// here. The
// tests are few and long: sign-up mails are limited per client too (20 per 10 minutes, shared
// with password.spec.ts on the same server).
import { expect, test, type Page } from "@playwright/test"
import { Authenticator, base32Decode, totp } from "./totp"
import {
  addAuthenticator,
  newAccount,
  pressLinkButton,
  screenshot,
  sessionCookie,
  type Account,
} from "./support"

/** The subjects of the mails these tests open. */
const SUBJECTS = {
  confirm: /^Confirm your address for localhost:\d+$/,
  signIn: /^Sign in to localhost:\d+$/,
}

/**
 * Opens the link to `path` of the newest mail to `address` with this subject, on /dev/mailbox.
 * The page is loaded again until the mail is there: no script needed.
 */
async function openMailedLink(page: Page, address: string, subject: RegExp, path: string) {
  const mail = page
    .getByRole("article", { name: `Mail to ${address}` })
    .filter({ has: page.locator("header strong", { hasText: subject }) })
    .first()
  await expect(async () => {
    await page.goto("/dev/mailbox")
    await expect(mail).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 10_000 })
  await mail.locator(`a[data-testid="mail-link"][href*="${path}"]`).click()
}

/** A new password account, confirmed by its mailed link: signed in, on /profile. */
async function signUp(page: Page): Promise<Account> {
  const account = newAccount("2fa", "Tess")
  await page.goto("/signup?callbackUrl=%2Fprofile")
  const form = page.getByTestId("signup-form")
  await form.getByLabel("Name").fill(account.name)
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Create my account" }).click()
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
  await openMailedLink(page, account.email, SUBJECTS.confirm, "/auth/verify-email/")
  await pressLinkButton(page, "confirmEmail")
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  return account
}

/** The key the setup page shows, in groups of four (the app takes it with its spaces). */
async function shownKey(page: Page) {
  const key = (await page.getByTestId("two-factor-key").textContent())!
  expect(key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/)
  return key
}

/**
 * Turns two-factor authentication on from the profile: the setup page's key goes into the
 * test's authenticator, whose code confirms it. Returns the app and the recovery codes, back on
 * the profile. `wrongCodeFirst`: a wrong code is refused first, and the key stays (the form is
 * enhanced) or is a new one (without JavaScript, the page loads again).
 */
async function turnOn(
  page: Page,
  options: { shot?: string; wrongCodeFirst?: "same key" | "new key" } = {},
) {
  const { shot, wrongCodeFirst } = options
  await page.goto("/profile")
  const status = page.getByTestId("two-factor-status")
  await expect(status).toHaveAttribute("data-enabled", "false")
  await page.getByTestId("turn-on-two-factor").click()
  await expect(page).toHaveURL("/settings/two-factor")
  await expect(
    page.getByRole("heading", { name: "Turn on two-factor authentication" }),
  ).toBeVisible()
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible()
  const first = await shownKey(page)
  if (shot) await screenshot(page, `${shot}-setup`)
  const form = page.getByTestId("setup-form")
  if (wrongCodeFirst) {
    await form
      .getByLabel("Code from your authenticator app")
      .fill(new Authenticator(first).wrongCode())
    await form.getByRole("button", { name: "Turn it on" }).click()
    const error = page.getByTestId("setup-error")
    await expect(error).toContainText("(code: wrong_code)")
    if (wrongCodeFirst === "same key") {
      await expect(error).not.toContainText("new key")
      expect(await shownKey(page)).toBe(first)
    } else {
      await expect(error).toContainText("This page made a new key")
      expect(await shownKey(page)).not.toBe(first)
    }
    await expect(page.getByTestId("two-factor-enabled")).toHaveCount(0)
  }
  const app = new Authenticator(await shownKey(page))
  await form.getByLabel("Code from your authenticator app").fill(await app.code())
  await form.getByRole("button", { name: "Turn it on" }).click()

  await expect(page.getByTestId("two-factor-enabled")).toBeVisible()
  const listed = page.getByTestId("recovery-codes").getByRole("listitem")
  await expect(listed).toHaveCount(10)
  const recoveryCodes = (await listed.allTextContents()).map((code) => code.trim())
  expect(new Set(recoveryCodes).size).toBe(10)
  if (shot) await screenshot(page, `${shot}-recovery-codes`)
  await page.getByTestId("continue").click()
  await expect(page).toHaveURL("/profile")
  await expect(status).toHaveAttribute("data-enabled", "true")
  return { app, recoveryCodes }
}

/** Signs out with the header's button (the profile has "Sign out" buttons of its own). */
async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByTestId("header-sign-in")).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** Posts the password form of the demo's sign-in page, on its way to `callbackUrl`. */
async function signInWithPassword(page: Page, account: Account, callbackUrl = "/protected") {
  await page.goto(`/signin?${new URLSearchParams({ callbackUrl })}`)
  const form = page.getByTestId("password-form")
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Sign in with email and password" }).click()
}

/** The code step, with no session yet: the password (or link) alone signed nobody in. */
async function expectCodeStep(page: Page) {
  await expect(page).toHaveURL("/two-factor")
  await expect(
    page.getByRole("heading", { name: "Enter the code from your authenticator app" }),
  ).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** Posts a code on the code step. */
async function enterCode(page: Page, code: string) {
  const form = page.getByTestId("two-factor-form")
  await form.getByLabel("Code from your authenticator app").fill(code)
  await form.getByRole("button", { name: "Verify" }).click()
}

/** Posts a recovery code on the code step's recovery form. */
async function enterRecoveryCode(page: Page, code: string) {
  const form = page.getByTestId("recovery-form")
  await form.getByLabel("Recovery code").fill(code)
  await form.getByRole("button", { name: "Sign in" }).click()
}

/** A refusal shown on the page, by its code; and still no session. */
async function expectRefused(page: Page, code: string, testId = "two-factor-error") {
  await expect(page.getByTestId(testId)).toContainText(`(code: ${code})`)
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** Signed in as the account, on `path`. */
async function expectSignedIn(page: Page, account: Account, path = "/protected") {
  await expect(page).toHaveURL(path)
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  expect(await sessionCookie(page.context())).toBeDefined()
}

test("the test's authenticator makes RFC 6238's codes (SHA-1, 8 digits; and their last 6)", () => {
  // RFC 6238 appendix B: the ASCII key "12345678901234567890", 30-second steps.
  const key = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
  expect(base32Decode(key).toString()).toBe("12345678901234567890")
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ]
  for (const [seconds, code] of vectors) {
    const step = Math.floor(seconds / 30)
    expect(totp(key, step, 8)).toBe(code)
    expect(totp(key, step)).toBe(code.slice(2))
  }
})

test("opened directly, the code step says no sign-in is waiting, with a link to sign in", async ({
  page,
}) => {
  await page.goto("/two-factor")
  await expect(
    page.getByRole("heading", { name: "No sign-in is waiting for a code" }),
  ).toBeVisible()
  await expect(
    page.getByTestId("no-sign-in-waiting").getByRole("link", { name: "Sign in" }),
  ).toHaveAttribute("href", "/signin")
  await expect(page.getByText("Your account has two-factor authentication on")).toHaveCount(0)
  await expect(page.getByTestId("two-factor-form")).toHaveCount(0)
})

test.describe("two-factor authentication", () => {
  // A sign-up by mail, a setup and several sign-ins; a code may wait for the next 30-s step.
  test.slow()

  test("turned on, a password and an email link ask the code; a passkey that verified its user does not", async ({
    page,
  }) => {
    await addAuthenticator(page)
    await withoutAutofill(page)
    const account = await signUp(page)
    const { app } = await turnOn(page, { shot: "two-factor", wrongCodeFirst: "same key" })
    // A passkey for the account, added while signed in.
    await page.getByTestId("add-passkey").click()
    await expect(page.getByTestId("passkey-added")).toBeVisible()
    await signOut(page)

    // The password: no session before the code.
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await screenshot(page, "two-factor-code")
    // Nobody is signed in yet: the profile sends to the sign-in page, the header says so.
    await page.goto("/profile")
    await expect(page).toHaveURL("/signin?callbackUrl=%2Fprofile")
    await expect(page.getByTestId("header-sign-in")).toBeVisible()
    // The sign-in waits (five minutes) for its code.
    await page.goto("/two-factor")
    await enterCode(page, app.wrongCode())
    await expectRefused(page, "wrong_code")
    await expect(page.getByTestId("two-factor-error")).toContainText("That code is not right.")
    await screenshot(page, "two-factor-wrong-code")
    await enterCode(page, await app.code())
    // Where the sign-in was going.
    await expectSignedIn(page, account)
    await signOut(page)

    // An email link (the mailbox, then the "Continue signing in" button): the code too.
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("email-form")
    await form.getByLabel("Email address").fill(account.email)
    await form.getByRole("button", { name: "Email me a sign-in link" }).click()
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
    await openMailedLink(page, account.email, SUBJECTS.signIn, "/auth/callback/")
    await pressLinkButton(page)
    await expectCodeStep(page)
    await enterCode(page, await app.code())
    await expectSignedIn(page, account)
    await signOut(page)

    // The passkey: the virtual authenticator verifies its user (the demo's Passkey provider
    // requires it), which is two factors by itself — signed in at once, no /two-factor on the way.
    const visited: string[] = []
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname)
    })
    await page.goto("/signin?callbackUrl=%2Fprotected")
    await page.getByTestId("passkey-signin").click()
    await expectSignedIn(page, account)
    expect(visited).not.toContain("/two-factor")
  })

  test("a code is accepted once; right codes do not count towards the limit, five wrong ones do", async ({
    page,
  }) => {
    // Three codes of the app, all of the steps the server accepts now (the current one and its
    // neighbours: no waiting for a new 30-s step), then recovery codes, which count towards the
    // same limit.
    const account = await signUp(page)
    const { app, recoveryCodes } = await turnOn(page)
    await signOut(page)

    // The code that turned it on is spent already.
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await enterCode(page, app.replay())
    await expectRefused(page, "replayed_code")
    await expect(page.getByTestId("two-factor-error")).toContainText("That code was used already")
    await enterCode(page, await app.code())
    await expectSignedIn(page, account)
    await signOut(page)

    // And so is the code of this sign-in, seen over a shoulder.
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await enterCode(page, app.replay())
    await expectRefused(page, "replayed_code")
    await enterCode(page, await app.code())
    await expectSignedIn(page, account)
    await signOut(page)

    // Right codes do not count towards the limit: after the setup's and two sign-ins' codes,
    // three more sign-ins with right (recovery) codes work as the first did.
    for (const code of recoveryCodes.slice(0, 3)) {
      await signInWithPassword(page, account)
      await expectCodeStep(page)
      await page.goto("/two-factor?recovery")
      await enterRecoveryCode(page, code)
      await expectSignedIn(page, account)
      await signOut(page)
    }

    // Wrong ones do: five may be tried (from this browser's network, for this account), then
    // even a right code is refused.
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    for (let wrong = 1; wrong <= 5; wrong++) {
      await enterCode(page, app.wrongCode())
      await expectRefused(page, "wrong_code")
    }
    await page.goto("/two-factor?recovery")
    await enterRecoveryCode(page, recoveryCodes[3]!)
    await expectRefused(page, "rate_limited")
    await expect(page.getByTestId("two-factor-error")).toContainText("Too many codes")
  })

  test("a recovery code signs in once; turning it off takes a code", async ({ page }) => {
    const account = await signUp(page)
    const { app, recoveryCodes } = await turnOn(page)
    const [first, second] = recoveryCodes
    await signOut(page)

    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await page.getByRole("link", { name: "Use a recovery code" }).click()
    await expect(page.getByRole("heading", { name: "Enter a recovery code" })).toBeVisible()
    await screenshot(page, "two-factor-recovery")
    await enterRecoveryCode(page, first!)
    await expectSignedIn(page, account)
    await signOut(page)

    // Used up.
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await page.goto("/two-factor?recovery")
    await enterRecoveryCode(page, first!)
    await expectRefused(page, "wrong_code")
    await enterRecoveryCode(page, second!)
    await expectSignedIn(page, account)

    // Turned off on the profile, with a code of the app: a right one, whatever the recovery-code
    // field holds too (here the recovery code used up above).
    await page.goto("/profile")
    const turnOff = page.getByTestId("turn-off-form")
    await turnOff.getByText("Use a recovery code").click()
    await turnOff.getByLabel("Recovery code").fill(first!)
    await turnOff.getByLabel("Code from your authenticator app").fill(await app.code())
    await turnOff.getByRole("button", { name: "Turn off" }).click()
    await expect(page).toHaveURL("/profile?twoFactorOff")
    await expect(page.getByTestId("two-factor-off")).toBeVisible()
    await expect(page.getByTestId("two-factor-status")).toHaveAttribute("data-enabled", "false")
    await signOut(page)

    // The password alone signs in again.
    await signInWithPassword(page, account)
    await expectSignedIn(page, account)
  })

  test("new recovery codes replace the old ones; a wrong code changes nothing", async ({
    page,
  }) => {
    const account = await signUp(page)
    const { app, recoveryCodes: old } = await turnOn(page)

    const form = page.getByTestId("recovery-codes-form")
    await form.getByLabel("Code from your authenticator app").fill(app.wrongCode())
    await form.getByRole("button", { name: "New recovery codes" }).click()
    await expect(page.getByTestId("recovery-codes-error")).toContainText("(code: wrong_code)")
    await expect(page.getByTestId("new-recovery-codes")).toHaveCount(0)

    await form.getByLabel("Code from your authenticator app").fill(await app.code())
    await form.getByRole("button", { name: "New recovery codes" }).click()
    const listed = page.getByTestId("new-recovery-codes").getByRole("listitem")
    await expect(listed).toHaveCount(10)
    const fresh = (await listed.allTextContents()).map((code) => code.trim())
    expect(fresh.filter((code) => old.includes(code))).toEqual([])
    await screenshot(page, "two-factor-profile")
    // Another form of the profile, posted before the codes are copied (its answer replaces the
    // page's form data): they stay on screen.
    const turnOff = page.getByTestId("turn-off-form")
    await turnOff.getByLabel("Code from your authenticator app").fill(app.wrongCode())
    await turnOff.getByRole("button", { name: "Turn off" }).click()
    await expect(page.getByTestId("turn-off-error")).toContainText("(code: wrong_code)")
    await expect(listed).toHaveCount(10)
    expect((await listed.allTextContents()).map((code) => code.trim())).toEqual(fresh)
    // Until the user says they saved them.
    await page.getByTestId("recovery-codes-saved").click()
    await expect(page.getByTestId("new-recovery-codes")).toHaveCount(0)
    await signOut(page)

    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await page.goto("/two-factor?recovery")
    await enterRecoveryCode(page, old[0]!)
    await expectRefused(page, "wrong_code")
    await enterRecoveryCode(page, fresh[0]!)
    await expectSignedIn(page, account)
  })
})

test.describe("two-factor authentication without JavaScript", () => {
  test.use({ javaScriptEnabled: false })
  test.slow()

  test("plain forms set it up, ask the code, and take a recovery code", async ({ page }) => {
    const account = await signUp(page)
    // A refused code loads the page again, with a new key: the page says so.
    const { app, recoveryCodes } = await turnOn(page, { wrongCodeFirst: "new key" })
    await signOut(page)

    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await enterCode(page, await app.code())
    await expectSignedIn(page, account)
    await signOut(page)

    // A refused recovery code comes back to the recovery form (the page rendered again).
    await signInWithPassword(page, account)
    await expectCodeStep(page)
    await page.getByRole("link", { name: "Use a recovery code" }).click()
    await enterRecoveryCode(page, "aaaaa-bbbbb")
    await expectRefused(page, "wrong_code")
    await expect(page.getByRole("heading", { name: "Enter a recovery code" })).toBeVisible()
    await enterRecoveryCode(page, recoveryCodes[0]!)
    await expectSignedIn(page, account)
  })
})

/**
 * Gives the page a virtual platform authenticator that verifies its user without asking (Chrome
 * DevTools Protocol `WebAuthn` domain), as passkey.spec.ts does.
 */

/** No passkey autofill: the sign-in page then offers its passkey button only. */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: async () => false,
    })
  })
}
