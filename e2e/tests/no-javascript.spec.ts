import { expect, test } from "@playwright/test"
import { ALICE, callbackUrlOf, sessionCookie } from "./support"

// Plain HTML forms and 303 redirects: the form action and the header's SignOut need no script.
test.use({ javaScriptEnabled: false })

test.describe("without JavaScript", () => {
  test("the form action signs in and returns to the requested page", async ({ page }) => {
    await page.goto("/protected")
    await expect(page).toHaveURL(/\/signin\?/)
    expect(callbackUrlOf(page.url())).toBe("/protected")

    const form = page.getByTestId("action-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in with the form action" }).click()

    await expect(page).toHaveURL("/protected")
    await expect(page.getByTestId("protected-title")).toBeVisible()
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
    expect(await sessionCookie(page.context())).toBeDefined()
  })

  test("a wrong password shows the inline error", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("action-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await form.getByRole("button", { name: "Sign in with the form action" }).click()

    const error = page.getByTestId("action-error")
    await expect(error).toBeVisible()
    await expect(error).toContainText("code: credentials")
    // The page was rendered again by the server, with the username filled in.
    await expect(page.getByTestId("action-form").getByLabel("Username")).toHaveValue(ALICE.username)
    expect(await sessionCookie(page.context())).toBeUndefined()
  })

  test("a retry after a wrong password still returns to the requested page", async ({ page }) => {
    await page.goto("/signin?callbackUrl=%2Fprotected")
    const form = page.getByTestId("action-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await form.getByRole("button", { name: "Sign in with the form action" }).click()
    await expect(page.getByTestId("action-error")).toBeVisible()

    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in with the form action" }).click()
    await expect(page).toHaveURL("/protected", { timeout: 2_000 })
  })

  test("the header's Sign out button signs out", async ({ page }) => {
    await page.goto("/signin")
    const form = page.getByTestId("action-form")
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button", { name: "Sign in with the form action" }).click()
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
