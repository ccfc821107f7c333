// Passkeys in Chromium, with a virtual authenticator (Chrome DevTools Protocol `WebAuthn`
// domain: a platform authenticator with resident keys and user verification): sign in with a
// password, add a passkey on the profile page, sign out, and sign in with the passkey alone.
import { expect, test, type CDPSession, type Page } from "@playwright/test"
import { addAuthenticator, ALICE, screenshot, sessionCookie, signInByApi } from "./support"

async function credentialsOf(cdp: CDPSession, authenticatorId: string) {
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
  return credentials
}

/** Signs in with a password, adds a passkey on /profile, and signs out. */
async function registerPasskey(page: Page) {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  // Earlier tests of this run may have given Alice passkeys already.
  const listed = page.getByTestId("passkeys").getByRole("listitem")
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  const before = await listed.count()
  await page.getByTestId("add-passkey").click()
  await expect(page.getByTestId("passkey-added")).toBeVisible()
  await expect(listed).toHaveCount(before + 1)
  await screenshot(page, "passkey-profile")
  // The header's: the profile also has a "Sign out" button per other session.
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }),
  ).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/**
 * Makes the page's browser one without passkey autofill (as older browsers are): the pages
 * then offer their passkey buttons only. With autofill, Chromium's virtual authenticator
 * answers a conditional request at once, as a user picking the suggestion would.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: async () => false,
    })
  })
}

test("adds a passkey on the profile, then signs in with the passkey alone", async ({ page }) => {
  const { cdp, id } = await addAuthenticator(page)
  await withoutAutofill(page)
  await registerPasskey(page)

  // The authenticator holds one discoverable credential for this site.
  const [credential, ...others] = await credentialsOf(cdp, id)
  expect(others).toHaveLength(0)
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" })
  const uses = credential!.signCount

  // No username, no password: the browser offers the passkey, the server verifies it.
  await page.goto("/signin?callbackUrl=%2Fprotected")
  await screenshot(page, "passkey-signin")
  await page.getByTestId("passkey-signin").click()
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
  expect(await sessionCookie(page.context())).toBeDefined()

  // The authenticator signed once more.
  const [after] = await credentialsOf(cdp, id)
  expect(after!.signCount).toBeGreaterThan(uses)
})

test("a passkey just added is not said to have been used", async ({ page }) => {
  const { cdp, id } = await addAuthenticator(page)
  await withoutAutofill(page)
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  const listed = page.getByTestId("passkeys").getByRole("listitem")
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  const before = await listed.count()
  await page.getByTestId("add-passkey").click()
  await expect(page.getByTestId("passkey-added")).toBeVisible()
  await expect(listed).toHaveCount(before + 1)
  // Registering signs once with the new key (its counter says 1): that is not a use. (Alice's
  // other passkeys, from earlier tests, may have signed in.)
  const [credential] = await credentialsOf(cdp, id)
  const added = page.locator(`[data-testid="passkey"][data-id="${credential!.credentialId}"]`)
  await expect(added.getByTestId("passkey-dates")).toHaveText(/· not signed in with yet$/)
  await expect(added).not.toContainText("used")
})

test("a second passkey from the same device says why none was added", async ({ page }) => {
  await addAuthenticator(page)
  await withoutAutofill(page)
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  const listed = page.getByTestId("passkeys").getByRole("listitem")
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  await page.getByTestId("add-passkey").click()
  await expect(page.getByTestId("passkey-added")).toBeVisible()
  const count = await listed.count()

  // The server lists the account's passkeys (`excludeCredentials`): this authenticator holds
  // one of them, and the browser refuses to make another (InvalidStateError).
  await page.getByTestId("add-passkey").click()
  const failed = page.getByTestId("passkey-failed")
  await expect(failed).toHaveRole("alert")
  await expect(failed).toContainText("already holds a passkey for your account")
  await expect(failed).toContainText("add a passkey from another device")
  // Placed right above the button.
  await expect(page.locator("[data-testid=passkey-failed] + button")).toHaveText("Add a passkey")
  await expect(listed).toHaveCount(count)
})

test("signs in from the browser's autofill of the sign-in page", async ({ page }) => {
  await addAuthenticator(page)
  await registerPasskey(page)
  // The page starts a conditional request when it loads; picking the passkey signs in.
  await page.goto("/signin?callbackUrl=%2Fprofile")
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)
})

test("the built-in sign-in page signs in with a passkey, by button or autofill", async ({
  page,
  browser,
}) => {
  const mine = await addAuthenticator(page)
  await withoutAutofill(page)
  await registerPasskey(page)
  await page.goto("/auth/signin?callbackUrl=%2Fprofile")
  const button = page.getByRole("button", { name: "Sign in with Passkey" })
  // Shown by the page's script (hidden without JavaScript).
  await expect(button).toBeVisible()
  await screenshot(page, "passkey-builtin-signin")
  await button.click()
  await expect(page).toHaveURL("/profile")
  await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)

  // The same passkey synced to another device, whose browser has autofill: the built-in page
  // signs in as soon as the passkey is picked.
  const [credential] = await credentialsOf(mine.cdp, mine.id)
  const other = await browser.newContext()
  const device = await other.newPage()
  const theirs = await addAuthenticator(device)
  await theirs.cdp.send("WebAuthn.addCredential", {
    authenticatorId: theirs.id,
    credential: credential!,
  })
  await device.goto("/auth/signin?callbackUrl=%2Fprofile")
  await expect(device).toHaveURL("/profile")
  await expect(device.getByTestId("profile-name")).toHaveText(ALICE.name)
  await other.close()
})

test("a passkey from another device is refused, with no session", async ({ page, browser }) => {
  await addAuthenticator(page)
  await withoutAutofill(page)
  await registerPasskey(page)

  // A second browser whose authenticator holds a passkey for this site that the server never
  // registered: the browser offers it, the server refuses it.
  const other = await browser.newContext()
  const stranger = await other.newPage()
  const { cdp, id } = await addAuthenticator(stranger)
  await withoutAutofill(stranger)
  await cdp.send("WebAuthn.addCredential", {
    authenticatorId: id,
    credential: {
      credentialId: Buffer.from("not-registered-anywhere").toString("base64"),
      isResidentCredential: true,
      rpId: "localhost",
      privateKey: await unregisteredKey(),
      userHandle: Buffer.from("nobody").toString("base64"),
      signCount: 0,
    },
  })
  await stranger.goto("/signin")
  await stranger.getByTestId("passkey-signin").click()
  await expect(stranger.getByTestId("passkey-error")).toHaveText(
    "That passkey could not sign you in.",
  )
  expect(await sessionCookie(other)).toBeUndefined()
  await other.close()
})

/** A P-256 private key in PKCS#8, base64, for a credential the server never saw. */
async function unregisteredKey(): Promise<string> {
  const { generateKeyPairSync } = await import("node:crypto")
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  return privateKey.export({ format: "der", type: "pkcs8" }).toString("base64")
}
