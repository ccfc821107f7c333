// Email sign-in in Chromium: ask for a link on the demo's sign-in page, open the demo's
// development mailbox (fed by a real SMTP sink), follow the link, press the button of the page it
// opens ("Continue signing in"), and be signed in. A mail scanner's visit spends nothing.
import { expect, test, type Page } from "@playwright/test"
import { pressLinkButton, screenshot, SESSION_COOKIE, sessionCookie } from "./support"

/** An address no other test (or project) uses. */
const newAddress = () =>
  `e2e-${test.info().project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`

/** Opens the mailbox and the newest mail to `address`; the mail's sign-in link. */
async function mailedLink(page: Page, address: string, shot?: string) {
  await page.goto("/dev/mailbox")
  const mail = page.getByRole("article", { name: `Mail to ${address}` })
  // The sink stores the mail a moment after the SMTP transaction: refresh until it is there.
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click()
    await expect(mail).toHaveCount(1, { timeout: 1_000 })
  }).toPass({ timeout: 10_000 })
  await expect(mail.getByRole("strong")).toHaveText(/^Sign in to localhost:\d+$/)
  if (shot) await screenshot(page, shot)
  return mail.getByTestId("mail-link").first()
}

/**
 * Follows the link of the newest mail to `address` as its reader does: clicks it in the mailbox,
 * and presses "Continue signing in" on the page it opens.
 */
async function followLink(page: Page, address: string, shot?: string) {
  const link = await mailedLink(page, address, shot)
  const href = (await link.getAttribute("href"))!
  await link.click()
  await expect(page).toHaveURL(/\/auth\/callback\/\w+\?(.+&)?token=/)
  if (shot) await screenshot(page, `${shot}-continue`)
  await pressLinkButton(page)
  return href
}

test("signs in with a link sent by email, which works once", async ({ page, browser }) => {
  const address = newAddress()
  await page.goto("/signin?callbackUrl=%2Fprotected")
  const form = page.getByTestId("email-form")
  await form.getByLabel("Email address").fill(address)
  await form.getByRole("button", { name: "Email me a sign-in link" }).click()

  // The built-in "check your email" page, naming the mail's host only.
  await expect(page).toHaveURL(/\/auth\/verify-request\?provider=nodemailer&type=email/)
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
  await expect(page.getByText("example.com")).toBeVisible()
  await expect(page.getByText(address)).toHaveCount(0)
  await screenshot(page, "email-verify-request")

  const href = await followLink(page, address, "email-mailbox")
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("protected-user")).toHaveText(address)
  await expect(page.getByTestId("header-user")).toHaveText(address)
  expect(await sessionCookie(page.context())).toBeDefined()

  // The same link in another browser: its page opens (it spends nothing), its button finds the
  // link used up, and no session.
  const other = await browser.newContext()
  const stranger = await other.newPage()
  await stranger.goto(href)
  await pressLinkButton(stranger)
  await expect(stranger).toHaveURL(/\/error\?error=Verification$/)
  expect(await sessionCookie(other)).toBeUndefined()
  await other.close()
})

test("a mail scanner's visit to the link leaves it working for its reader", async ({
  page,
  request,
}) => {
  const address = newAddress()
  await page.goto("/signin?callbackUrl=%2Fprotected")
  const form = page.getByTestId("email-form")
  await form.getByLabel("Email address").fill(address)
  await form.getByRole("button", { name: "Email me a sign-in link" }).click()
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
  const link = await mailedLink(page, address)
  const href = (await link.getAttribute("href"))!

  // The scanner (Outlook Safe Links and the like) checks the link before the reader opens it:
  // HEAD and GET, no cookies, no button pressed. Each answers a page and signs nobody in.
  const head = await request.head(href, { maxRedirects: 0 })
  expect(head.status()).toBe(200)
  for (let visit = 0; visit < 2; visit++) {
    const scanned = await request.get(href, { maxRedirects: 0 })
    expect(scanned.status()).toBe(200)
    expect(await scanned.text()).toContain("Continue signing in")
  }
  const { cookies } = await request.storageState()
  expect(cookies.filter((cookie) => cookie.name.startsWith(SESSION_COOKIE))).toEqual([])

  // Then the reader clicks it, and the page's button signs in.
  await link.click()
  await pressLinkButton(page)
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("protected-user")).toHaveText(address)
  expect(await sessionCookie(page.context())).toBeDefined()
})

test("the built-in sign-in page sends a link too", async ({ page }) => {
  const address = newAddress()
  await page.goto("/auth/signin?callbackUrl=%2F")
  // The email provider's own form (the password accounts' form has an email field too).
  const button = page.getByRole("button", { name: "Sign in with Email link", exact: true })
  const form = page.locator("form", { has: button })
  await form.getByLabel("Email", { exact: true }).fill(address)
  await button.click()
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
  await followLink(page, address)
  await expect(page).toHaveURL("/")
  await expect(page.getByTestId("user-name")).toHaveText(address)
})

test("signs in with a link sent through Resend's HTTP API (to the local mailbox's API)", async ({
  page,
}) => {
  const address = newAddress()
  await page.goto("/auth/signin?callbackUrl=%2Fprotected")
  const button = page.getByRole("button", { name: "Sign in with Email link (Resend)" })
  const form = page.locator("form", { has: button })
  await form.getByLabel("Email", { exact: true }).fill(address)
  await button.click()
  await expect(page).toHaveURL(/\/auth\/verify-request\?provider=resend&type=email/)
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()

  await followLink(page, address, "email-resend-mailbox")
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("protected-user")).toHaveText(address)
  expect(await sessionCookie(page.context())).toBeDefined()
})

test("an address that is not one plain address gets a message and no mail", async ({ page }) => {
  await page.goto("/signin")
  const form = page.getByTestId("email-form")
  const input = form.getByLabel("Email address")
  // Two addresses in one: the browser's own check lets `multiple`-less input through only
  // when it looks like one address, so post the form without it.
  await input.evaluate((element: HTMLInputElement) => (element.type = "text"))
  await input.fill("victim@example.com, attacker@example.com")
  await form.getByRole("button", { name: "Email me a sign-in link" }).click()
  await expect(page.getByTestId("email-error")).toBeVisible()
  await page.goto("/dev/mailbox")
  await expect(page.getByRole("article", { name: /attacker@example\.com/ })).toHaveCount(0)
})
