// The passkeys a user manages on the demo's profile, in Chromium with virtual authenticators:
// two passkeys registered (one per authenticator: an authenticator holds one per account), their
// details listed, one renamed (to markup, which shows as typed), one removed after confirming it
// is the user — and the browser told each time through the WebAuthn Signal API, which the test
// watches by wrapping `PublicKeyCredential.signal*` before any page script runs. Last, the
// removed passkey, still held by an authenticator, is refused at sign-in and reported to the
// browser as unknown.
import { expect, test, type CDPSession, type Page } from "@playwright/test"
import {
  confirmWithPassword,
  expectConfirmStep,
  expireProof,
  findMail,
  signUp,
  SUBJECTS,
} from "./accounts"
import { addAuthenticator, screenshot } from "./support"

interface Signal {
  name: string
  options: Record<string, unknown>
}

/**
 * Records every call of the Signal API's methods in `sessionStorage` (pages come and go), then
 * calls the browser's own method where it has one.
 */
async function watchSignals(page: Page) {
  await page.addInitScript(() => {
    const api = PublicKeyCredential as unknown as Record<string, unknown>
    for (const name of [
      "signalUnknownCredential",
      "signalAllAcceptedCredentials",
      "signalCurrentUserDetails",
    ]) {
      const original = api[name]
      Object.defineProperty(PublicKeyCredential, name, {
        configurable: true,
        writable: true,
        value: async (options: unknown) => {
          const log = JSON.parse(sessionStorage.getItem("signals") ?? "[]") as unknown[]
          log.push({ name, options })
          sessionStorage.setItem("signals", JSON.stringify(log))
          if (typeof original === "function") return original.call(PublicKeyCredential, options)
        },
      })
    }
  })
}

const signals = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem("signals") ?? "[]")) as Promise<Signal[]>

/** The last call of one signal method. */
async function lastSignal(page: Page, name: string) {
  let found: Signal | undefined
  await expect(async () => {
    found = (await signals(page)).filter((signal) => signal.name === name).at(-1)
    expect(found, `${name} was called`).toBeDefined()
  }).toPass({ timeout: 5_000 })
  return found!.options
}

/** Credential ids as the browser's Signal API names them: base64url (CDP gives base64). */
const base64url = (base64: string) => Buffer.from(base64, "base64").toString("base64url")

async function credentialsOf(cdp: CDPSession, authenticatorId: string) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
  return credentials
}

/** Adds a passkey from the profile with the current authenticator. */
async function addPasskey(page: Page, count: number) {
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  await page.getByTestId("add-passkey").click()
  await expect(page.getByTestId("passkey-added")).toBeVisible()
  await expect(page.getByTestId("passkey")).toHaveCount(count)
}

test("lists, renames and removes passkeys, and tells the browser", async ({ page, context }) => {
  await watchSignals(page)
  const first = await addAuthenticator(page)
  const account = await signUp(page, "passkeys", "Pia")

  await addPasskey(page, 1)
  const [kept] = await credentialsOf(first.cdp, first.id)
  // The second passkey from another authenticator (this one holds the account's already).
  await first.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first.id })
  const second = await addAuthenticator(page)
  await addPasskey(page, 2)
  const [removed] = await credentialsOf(second.cdp, second.id)

  // Each with what was stored at registration. Chromium's virtual authenticator is no model of
  // the list (its AAGUID is its own): "Passkey"; it keeps its keys on one device. The browser is
  // summarised from the user agent the suite's browser sends (a desktop Chrome's).
  const items = page.getByTestId("passkey")
  for (const item of await items.all()) {
    await expect(item.getByTestId("passkey-name")).toHaveText("Passkey")
    await expect(item.getByTestId("passkey-kind")).toHaveText(
      /^On this device only · added from Chrome on (Windows|Linux|macOS)$/,
    )
    await expect(item.getByTestId("passkey-dates")).toHaveText(
      /^Added \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC · not signed in with yet$/,
    )
  }
  await screenshot(page, "passkeys-listed")

  // The browser learned both passkeys and the user's names.
  const accepted = await lastSignal(page, "signalAllAcceptedCredentials")
  expect(accepted.rpId).toBe("localhost")
  expect(new Set(accepted.allAcceptedCredentialIds as string[])).toEqual(
    new Set([base64url(kept!.credentialId), base64url(removed!.credentialId)]),
  )
  // The user handle the passkeys were made with.
  expect(accepted.userId).toBe(base64url(kept!.userHandle!))
  expect(await lastSignal(page, "signalCurrentUserDetails")).toEqual({
    rpId: "localhost",
    userId: accepted.userId,
    name: account.email,
    displayName: account.name,
  })

  // A name with markup is the user's text: shown as typed, never run.
  const markup = `<img src=x onerror="window.hacked=1">Work laptop`
  const renamed = page.locator(`[data-testid="passkey"][data-id="${kept!.credentialId}"]`)
  await renamed.getByTestId("passkey-rename-input").fill(markup)
  await renamed.getByTestId("passkey-rename").click()
  await expect(page.getByTestId("passkey-renamed")).toBeVisible()
  await expect(renamed.getByTestId("passkey-name")).toHaveText(markup)
  await expect(page.getByTestId("passkeys").locator("img")).toHaveCount(0)
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined()
  await screenshot(page, "passkey-renamed")

  // Removing one is a change of the ways in: past the window, "Confirm it is you" first.
  await expireProof(context)
  await page.goto("/profile")
  const removing = page.locator(`[data-testid="passkey"][data-id="${removed!.credentialId}"]`)
  await removing.getByTestId("passkey-remove").click()
  await expectConfirmStep(page, "/profile")
  await confirmWithPassword(page, account.password)
  await expect(page).toHaveURL(/\/profile/)
  await expect(page.getByTestId("passkey")).toHaveCount(2)
  await removing.getByTestId("passkey-remove").click()
  await expect(page.getByTestId("method-removed")).toBeVisible()
  await expect(page.getByTestId("passkey")).toHaveCount(1)
  await expect(page.getByTestId("passkey-name")).toHaveText(markup)

  // The browser is told that only the kept passkey is accepted now.
  await expect(async () => {
    const latest = await lastSignal(page, "signalAllAcceptedCredentials")
    expect(latest.allAcceptedCredentialIds).toEqual([base64url(kept!.credentialId)])
  }).toPass({ timeout: 5_000 })
  const notice = await findMail(page, account.email, SUBJECTS.passkeyRemoved)
  await expect(notice).toBeVisible()

  // A removed passkey may still sit in a password manager (one that missed the signal: Chromium
  // itself acts on it, so the authenticator is given the credential back). Signing in with it is
  // refused as a credential the site does not know, and the browser is told to forget it.
  await second.cdp.send("WebAuthn.clearCredentials", { authenticatorId: second.id })
  await second.cdp.send("WebAuthn.addCredential", {
    authenticatorId: second.id,
    credential: removed!,
  })
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible()
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: async () => false,
    })
  })
  await page.goto("/signin?callbackUrl=%2Fprofile")
  await page.getByTestId("passkey-signin").click()
  await expect(page.getByTestId("header-user")).toHaveCount(0)
  expect(await lastSignal(page, "signalUnknownCredential")).toEqual({
    rpId: "localhost",
    credentialId: base64url(removed!.credentialId),
  })
})
