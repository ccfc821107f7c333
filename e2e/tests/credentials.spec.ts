import { expect, test, type Page } from "@playwright/test"
import { ALICE, BOB, callbackUrlOf, sessionCookie, signInByApi } from "./support"

/** Opens /protected anonymously: the demo sends the visitor to its sign-in page. */
async function startFromProtected(page: Page) {
  await page.goto("/protected")
  await expect(page).toHaveURL(/\/signin\?/)
  expect(callbackUrlOf(page.url())).toBe("/protected")
}

/**
 * Signs in with the page's username and password form: with JavaScript (these tests), its
 * submit calls the browser helper signIn("credentials", …); without, it posts to the page's form
 * action (no-javascript.spec.ts).
 */
async function fillSignInForm(page: Page, username: string, password: string) {
  const form = page.getByTestId("signin-form")
  await form.getByLabel("Username").fill(username)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
}

/** Posts the username and password to the page's form action, as the form does without script. */
async function postToFormAction(page: Page, username: string, password: string) {
  const form = page.getByTestId("signin-form")
  await form.getByLabel("Username").fill(username)
  await form.getByLabel("Password").fill(password)
  // The form's own POST, without the script's submit handler.
  await form.evaluate((element: HTMLFormElement) => HTMLFormElement.prototype.submit.call(element))
}

/** The user is back on /protected, and home and the header show their name. */
async function expectSignedInAs(page: Page, name: string) {
  await expect(page).toHaveURL("/protected")
  await expect(page.getByTestId("protected-title")).toBeVisible()
  await expect(page.getByTestId("header-user")).toHaveText(name)
  expect(await sessionCookie(page.context()), "the session cookie").toBeDefined()

  await page.goto("/")
  await expect(page.getByTestId("user-name")).toHaveText(name)
  await expect(page.getByTestId("header-user")).toHaveText(name)
}

test.describe("signing in with the username and password form (the browser helper)", () => {
  test("returns to the requested page and shows the user's name", async ({ page }) => {
    await startFromProtected(page)
    await fillSignInForm(page, ALICE.username, ALICE.password)
    await expectSignedInAs(page, ALICE.name)
  })

  test("with a wrong password shows an inline message and sets no cookie", async ({ page }) => {
    await startFromProtected(page)
    await fillSignInForm(page, ALICE.username, "not-the-password")
    const form = page.getByTestId("signin-form")
    await expect(form.getByRole("alert")).toHaveText(
      "Wrong username or password. (code: credentials)",
    )
    // The visitor stays on the sign-in page, still anonymous.
    await expect(page).toHaveURL(/\/signin\?/)
    await expect(page.getByTestId("header-user")).toHaveCount(0)
    expect(await sessionCookie(page.context())).toBeUndefined()

    // The next try clears the message and returns to the requested page.
    await fillSignInForm(page, ALICE.username, ALICE.password)
    await expectSignedInAs(page, ALICE.name)
  })
})

test.describe("signing in through the page's form action", () => {
  test("returns to the requested page and shows the user's name", async ({ page }) => {
    await startFromProtected(page)
    await postToFormAction(page, BOB.username, BOB.password)
    await expectSignedInAs(page, BOB.name)
  })

  test("with a wrong password shows the inline error with its code", async ({ page }) => {
    await startFromProtected(page)
    await postToFormAction(page, BOB.username, "not-the-password")
    const error = page.getByTestId("signin-error")
    await expect(error).toBeVisible()
    await expect(error).toContainText("Wrong username or password")
    await expect(error).toContainText("code: credentials")
    // The username is kept for the next try.
    await expect(page.getByTestId("signin-form").getByLabel("Username")).toHaveValue(BOB.username)
    await expect(page.getByTestId("header-user")).toHaveCount(0)
    expect(await sessionCookie(page.context())).toBeUndefined()

    // The next try still returns to the requested page.
    await postToFormAction(page, BOB.username, BOB.password)
    await expectSignedInAs(page, BOB.name)
  })

  test("with an unknown user shows the same inline error", async ({ page }) => {
    await page.goto("/signin")
    await postToFormAction(page, "mallory", "whatever")
    await expect(page.getByTestId("signin-error")).toContainText("code: credentials")
    expect(await sessionCookie(page.context())).toBeUndefined()
  })
})

test("the sign-in page tells a signed-in user who they are", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/signin")
  await expect(page.getByText(`You are already signed in as ${ALICE.name}.`)).toBeVisible()
})

test("signing out with the header's button ends the session", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/protected")
  await expect(page.getByTestId("protected-title")).toBeVisible()

  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  // The demo's SignOut sends the user home.
  await expect(page).toHaveURL("/")
  await expect(page.getByTestId("signed-out")).toBeVisible()
  await expect(page.getByTestId("header-user")).toHaveCount(0)
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible()
  expect(await sessionCookie(page.context()), "the session cookie is gone").toBeUndefined()

  // Guarded pages redirect again, over HTTP and in the browser.
  for (const path of ["/protected", "/admin"]) {
    const response = await page.request.get(path, { maxRedirects: 0 })
    expect(response.status()).toBe(303)
  }
  await page.goto("/protected")
  await expect(page).toHaveURL(/\/signin\?/)
})
