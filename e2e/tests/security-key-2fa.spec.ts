// A security key as the second factor, in Chromium with a virtual authenticator configured as a
// plain security key: CTAP2 over USB, no user verification (no PIN, no biometric) and no
// resident keys. Added from the demo's profile (recovery codes shown once, two-factor turned
// on), asked for at the next password sign-in's code step ("Use a security key" instead of a
// code), confirming it is the user at "Confirm it is you", and removed, which turns two-factor
// authentication off again.
import { expect, test, type Page } from "@playwright/test"
import { expectConfirmStep, expireProof, signUp } from "./accounts"
import { screenshot, sessionCookie } from "./support"

/** A security key without a PIN: what `residentKey`/`userVerification: "discouraged"` are for. */
async function addSecurityKey(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: false,
      hasUserVerification: false,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, id: authenticatorId }
}

test("a security key without a PIN: added on the profile, asked at sign-in, removed", async ({
  page,
}) => {
  const key = await addSecurityKey(page)
  const account = await signUp(page, "seckey", "Kai")

  // Added from the profile: the first second factor, so recovery codes, shown once.
  await expect(page.getByTestId("add-security-key")).toBeEnabled()
  await page.getByTestId("add-security-key").click()
  const codes = page.getByTestId("security-key-recovery-codes")
  await expect(codes).toBeVisible()
  await expect(codes.locator("li")).toHaveCount(10)
  await expect(page.getByTestId("security-key")).toHaveCount(1)
  await expect(page.getByTestId("two-factor-status")).toHaveAttribute("data-enabled", "true")
  await screenshot(page, "security-key-added")
  // Made as asked: not a resident (discoverable) credential.
  const { credentials } = await key.cdp.send("WebAuthn.getCredentials", {
    authenticatorId: key.id,
  })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]!.isResidentCredential).toBe(false)

  // The password alone signs nobody in: the code step, answered with the key.
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByTestId("header-sign-in")).toBeVisible()
  await page.goto(`/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
  const form = page.getByTestId("password-form")
  await form.getByLabel("Email address").fill(account.email)
  await form.getByLabel("Password").fill(account.password)
  await form.getByRole("button", { name: "Sign in with email and password" }).click()
  await expect(page).toHaveURL("/two-factor")
  expect(await sessionCookie(page.context())).toBeUndefined()
  await page.getByRole("button", { name: "Use a security key" }).click()
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("header-user")).toHaveText(account.name)
  const [used] = (await key.cdp.send("WebAuthn.getCredentials", { authenticatorId: key.id }))
    .credentials
  expect(used!.signCount).toBeGreaterThan(credentials[0]!.signCount)

  // Removing it needs fresh proof with the second factor: past its minutes, "Confirm it is you"
  // takes the key (the session stands for the first factor), then back to the profile.
  await expireProof(page.context())
  await page.goto("/profile")
  await page.getByTestId("remove-security-key").click()
  await expectConfirmStep(page, "/profile")
  await page.getByTestId("confirm-security-key").click()
  await expect(page).toHaveURL(/\/profile/)
  await expect(page.getByTestId("security-key")).toHaveCount(1)

  // Removed now: the last one turns it off.
  await page.getByTestId("remove-security-key").click()
  await expect(page.getByTestId("security-key")).toHaveCount(0)
  await expect(page.getByTestId("two-factor-status")).toHaveAttribute("data-enabled", "false")
})
