import { expect, test } from "@playwright/test"
import { ALICE, callbackUrlOf, pressLinkButton, sessionCookie } from "./support"

// Plain HTML forms and 303 redirects: the sign-in form (posted to the page's form action), the
// header's SignOut and the page a mailed link opens need no script.
test.use({ javaScriptEnabled: false })

test.describe("without JavaScript", () => {
  test("the sign-in form posts to the form action and returns to the requested page", async ({
    page,
  }) => {
    await page.goto("/protected")
    await expect(page).toHaveURL(/\/signin\?/)
    expect(callbackUrlOf(page.url())).toBe("/protected")

    const form = page.getByTestId("signin-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()

    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("protected-title")).toBeVisible()
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
    expect(await sessionCookie(page.context())).toBeDefined()
  })

  test("a wrong password shows the inline error", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("signin-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await form.getByRole("button", { name: "Sign in", exact: true }).click()

    const error = page.getByTestId("signin-error")
    await expect(error).toBeVisible()
    await expect(error).toContainText("code: credentials")
    // The page was rendered again by the server, with the username filled in.
    await expect(page.getByTestId("signin-form").getByLabel("Username")).toHaveValue(ALICE.username)
    expect(await sessionCookie(page.context())).toBeUndefined()
  })

  test("a retry after a wrong password still returns to the requested page", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("signin-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect(page.getByTestId("signin-error")).toBeVisible()

    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect(page).toHaveURL("/protected")
  })

  test("a mailed sign-in link opens a page whose button signs in", async ({ page }) => {
    const address = `e2e-nojs-${test.info().project.name}-${Date.now()}@example.com`
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("email-form")
    await form.getByLabel("Email address").fill(address)
    await form.getByRole("button", { name: "Email me a sign-in link" }).click()
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible()

    // The mailbox is loaded again until the mail is there (its Refresh button needs a script).
    const mail = page.getByRole("article", { name: `Mail to ${address}` })
    await expect(async () => {
      await page.goto("/dev/mailbox")
      await expect(mail).toBeVisible({ timeout: 1_000 })
    }).toPass({ timeout: 10_000 })
    await mail.getByTestId("mail-link").first().click()
    await pressLinkButton(page)
    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("header-user")).toHaveText(address)
    expect(await sessionCookie(page.context())).toBeDefined()
  })

  test("the header's Sign out button signs out", async ({ page }) => {
    await page.goto("/signin")
    const form = page.getByTestId("signin-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect(page).toHaveURL("/")
    await expect(page.getByTestId("user-name")).toHaveText(ALICE.name)

    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
    await expect(page).toHaveURL("/")
    await expect(page.getByTestId("signed-out")).toBeVisible()
    expect(await sessionCookie(page.context())).toBeUndefined()
    await page.goto("/protected")
    await expect(page).toHaveURL(/\/signin\?/)
  })
})
