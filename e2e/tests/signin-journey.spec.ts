// The sign-in journey as a new user meets it: one clear way in (username and password) with the
// others below it, forms that work without JavaScript and never put a password in a URL, buttons
// that are busy while their form is on its way (one mail per click, however fast), email limits
// the page says out loud, a way from "check your email" to the demo's mailbox, and a built-in
// sign-in page whose choices say what each one is.
import { expect, test, type Locator, type Page } from "@playwright/test"
import { ALICE, newAccount, pressLinkButton, random, sessionCookie } from "./support"

/** An address no other test (or project, or run) uses. */
const newAddress = (what: string) =>
  `journey-${what}-${test.info().project.name}-${Date.now()}-${random()}@example.com`

/** The demo mailbox's mails to `address`. */
const mailsTo = (page: Page, address: string) =>
  page.getByRole("article", { name: `Mail to ${address}`, exact: true })

/** Opens the mailbox until it holds `count` mails to `address` (the sink stores them a moment late). */
async function expectMailCount(page: Page, address: string, count: number) {
  await expect(async () => {
    await page.goto("/dev/mailbox")
    await expect(mailsTo(page, address)).toHaveCount(count, { timeout: 1_000 })
  }).toPass({ timeout: 15_000 })
}

/** Asks for a sign-in link with the sign-in page's email form. */
async function askForLink(page: Page, address: string) {
  await page.goto("/signin")
  const form = page.getByTestId("email-form")
  await form.getByLabel("Email address").fill(address)
  await form.getByRole("button", { name: "Email me a sign-in link" }).click()
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
}

/**
 * Mails a link to an address of its own and waits for it: every request made before this one
 * has been answered (and its mail sent) by then, so a count of mails after it is final.
 */
async function settleMails(page: Page) {
  const marker = newAddress("marker")
  await askForLink(page, marker)
  await expectMailCount(page, marker, 1)
}

test.describe("the sign-in page", () => {
  test("leads with the username and password, the other ways grouped below", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const main = page.getByTestId("signin-form")
    await expect(main.getByLabel("Username")).toBeVisible()
    await expect(main.getByRole("button", { name: "Sign in", exact: true })).toBeVisible()
    // The other ways, named for what the user does, not for the API behind them.
    await expect(page.getByRole("heading", { name: "Other ways to sign in" })).toBeVisible()
    await expect(
      page.getByRole("button", { name: "Continue with Local OpenID Provider" }),
    ).toBeVisible()
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeEnabled()
    await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible()
    // Which API each form uses is for developers: in the small print, not in the labels.
    const developerTerms = /client helper|form action|credentials/i
    await expect(page.getByRole("heading", { name: developerTerms })).toHaveCount(0)
    await expect(page.getByRole("button", { name: developerTerms })).toHaveCount(0)
    await expect(page.getByTestId("signin-developer-note")).toContainText("form action")
    await expect(page.getByTestId("passkey-needs-javascript")).toBeHidden()

    await main.getByLabel("Username").fill(ALICE.username)
    await main.getByLabel("Password").fill(ALICE.password)
    await main.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
  })

  test("the verify-request page links to the demo's mailbox, where the link is", async ({
    page,
  }) => {
    const address = newAddress("inbox")
    await askForLink(page, address)
    await page.getByRole("link", { name: "Open your mailbox" }).click()
    await expect(page).toHaveURL("/dev/mailbox")
    await expect(page.getByRole("heading", { name: "Mailbox" })).toBeVisible()
    await expectMailCount(page, address, 1)
  })
})

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false })

  test("the password forms post, and signing in keeps the password out of every URL", async ({
    page,
  }) => {
    const urls: string[] = []
    page.on("request", (request) => urls.push(request.url()))
    for (const path of ["/signin", "/signup"]) {
      await page.goto(path)
      const forms = page.locator("form", { has: page.locator('input[type="password"]') })
      await expect(forms.first()).toBeVisible()
      for (const form of await forms.all()) {
        await expect(form, `a password form of ${path}`).toHaveAttribute("method", /^post$/i)
      }
    }

    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("signin-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
    expect(await sessionCookie(page.context())).toBeDefined()
    expect(urls.filter((url) => url.includes(ALICE.password))).toEqual([])
  })

  test("the passkey button is off, and says it needs JavaScript", async ({ page }) => {
    await page.goto("/signin")
    await expect(page.getByTestId("passkey-signin")).toBeDisabled()
    await expect(page.getByTestId("passkey-needs-javascript")).toHaveText(
      "Signing in with a passkey needs JavaScript, which is off in this browser.",
    )
  })
})

/**
 * Clicks the button twice in one go, as the fastest double-click does: the second click comes
 * before the page has redrawn anything after the first.
 */
async function doubleClick(button: Locator) {
  await button.evaluate((element: HTMLButtonElement) => {
    element.click()
    element.click()
  })
}

test.describe("a double-click sends one mail", () => {
  test("on 'Email me a sign-in link'", async ({ page }) => {
    const address = newAddress("double-link")
    await page.goto("/signin")
    const form = page.getByTestId("email-form")
    await form.getByLabel("Email address").fill(address)
    await doubleClick(form.getByRole("button", { name: "Email me a sign-in link" }))
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
    await settleMails(page)
    await expect(mailsTo(page, address)).toHaveCount(1)
  })

  test("on 'Create my account'", async ({ page }) => {
    const account = newAccount("journey-double-signup", "Double")
    await page.goto("/signup")
    const form = page.getByTestId("signup-form")
    await form.getByLabel("Name").fill(account.name)
    await form.getByLabel("Email address").fill(account.email)
    await form.getByLabel("Password").fill(account.password)
    await doubleClick(form.getByRole("button", { name: "Create my account" }))
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()
    await settleMails(page)
    await expect(mailsTo(page, account.email)).toHaveCount(1)
  })
})

test.describe("the email limit (5 links per address in 10 minutes)", () => {
  /** Asks for the sixth link and returns what the page says. */
  async function sixthLink(page: Page, address: string) {
    await askForLink(page, address)
    const alert = page.getByRole("alert")
    await expect(alert).toContainText(
      "Too many sign-in links were requested for this address, so no new email was sent. " +
        "Try again in 10 minutes.",
    )
    return page.locator("main").innerText()
  }

  test("is said on the page, alike for an address with an account and one without", async ({
    page,
  }) => {
    // Twelve requests for links, and a sign-in.
    test.slow()
    // An address with an account: its first link signs in (and creates the account).
    const member = newAddress("limit-member")
    await askForLink(page, member)
    await expectMailCount(page, member, 1)
    await mailsTo(page, member).getByTestId("mail-link").first().click()
    await pressLinkButton(page)
    await expect(page.getByTestId("header-user")).toHaveText(member)
    await page.context().clearCookies()
    for (let i = 2; i <= 5; i++) await askForLink(page, member)
    const memberPage = await sixthLink(page, member)
    await expectMailCount(page, member, 5)

    // An address without one: the same five links, the same page for the sixth.
    const stranger = newAddress("limit-stranger")
    for (let i = 1; i <= 5; i++) await askForLink(page, stranger)
    const strangerPage = await sixthLink(page, stranger)
    expect(strangerPage).toBe(memberPage)
    await settleMails(page)
    await expect(mailsTo(page, stranger)).toHaveCount(5)
  })
})

test("the built-in sign-in page names each way, and asks no email for a passkey", async ({
  page,
}) => {
  await page.goto("/auth/signin")
  for (const name of [
    "Sign in with Username and password",
    "Sign in with Email and password",
    "Sign in with Email link",
    "Sign in with Passkey",
  ]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible()
  }
  const passkey = page.locator("form", {
    has: page.getByRole("button", { name: "Sign in with Passkey" }),
  })
  await expect(passkey.getByRole("textbox")).toHaveCount(0)
  await expect(passkey).toContainText("Pick a passkey you have for this site.")
  // The browser offers passkeys in the username field's autofill instead.
  const username = page.locator("form", { has: page.getByLabel("Username") }).getByLabel("Username")
  await expect(username).toHaveAttribute("autocomplete", "username webauthn")
})
