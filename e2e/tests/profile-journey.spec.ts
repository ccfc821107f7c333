// The profile as a new user goes through it, with and without JavaScript: the name saves as a
// plain form too, a form posted after the session ended says so, the passkey button says it
// needs JavaScript, and a provider already linked is not offered again.
import { expect, test, type Page } from "@playwright/test"
import { ALICE, BOB, sessionCookie, signInByApi } from "./support"

/** The demo's local OpenID Provider: the port after the demo's (playwright.config.ts). */
const OP_ORIGIN = new RegExp(
  `^http://127\\.0\\.0\\.1:${Number(process.env.E2E_PORT_BASE ?? 4173) + 1}/`,
)

/** The sign-in page, coming back to the profile. */
const SIGN_IN_HERE = "/signin?callbackUrl=%2Fprofile"

/** Ends the session behind the page's back: its cookie goes, and no tab is told. */
async function loseSession(page: Page) {
  await page.context().clearCookies({ name: /^authjs\.session-token/ })
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/** The display-name form of the profile. */
const nameForm = (page: Page) => page.locator("form", { has: page.getByTestId("name-input") })

/** Expects the signed-out message right above the form's button, with its link. */
async function expectSignedOut(page: Page) {
  const message = nameForm(page).getByTestId("form-signed-out")
  await expect(message).toHaveRole("alert")
  await expect(message).toContainText("You are signed out — sign in again")
  await expect(message.getByRole("link", { name: "sign in again" })).toHaveAttribute(
    "href",
    SIGN_IN_HERE,
  )
  // Placed right above the button.
  await expect(nameForm(page).locator("[data-testid=form-signed-out] + button")).toHaveText("Save")
}

test.describe("with JavaScript", () => {
  test("a form posted after the session ended says so, with a link to sign in", async ({
    page,
  }) => {
    await signInByApi(page, ALICE)
    await page.goto("/profile")
    await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)
    await loseSession(page)

    await page.getByTestId("name-input").fill("Nobody at all")
    await page.getByRole("button", { name: "Save" }).click()
    await expectSignedOut(page)
    await expect(page.getByTestId("saved")).toHaveCount(0)
    await nameForm(page).getByRole("link", { name: "sign in again" }).click()
    await expect(page).toHaveURL(SIGN_IN_HERE)
  })

  test("a provider already linked is not offered again", async ({ page }) => {
    // Signed in with the local OpenID Provider: it is one of the account's sign-in methods.
    await page.goto("/signin?callbackUrl=%2Fprofile")
    await page.getByRole("button", { name: "Continue with Local OpenID Provider" }).click()
    await expect(page).toHaveURL(OP_ORIGIN)
    await page.locator("input[name=login]").fill(ALICE.username)
    await page.locator("input[name=password]").fill("any")
    await page.locator("button[type=submit]").first().click()
    await expect(page).toHaveURL(OP_ORIGIN)
    await page.locator("button[type=submit]").first().click()
    await expect(page).toHaveURL("/profile")
    await expect(
      page.getByTestId("sign-in-method").filter({ hasText: "Local OpenID Provider" }),
    ).toHaveCount(1)

    // Another provider is offered; this one is not.
    await expect(page.getByRole("button", { name: "Link Cognito" })).toBeVisible()
    await expect(page.getByText("Link Local OpenID Provider")).toHaveCount(0)
  })
})

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false })

  test("Save posts the name to a form action, which saves it", async ({ page }) => {
    await signInByApi(page, BOB)
    await page.goto("/profile")
    const before = ((await page.getByTestId("profile-name").textContent()) ?? "").trim()
    await expect(nameForm(page)).toHaveAttribute("method", /post/i)

    const save = async (name: string) => {
      await page.getByTestId("name-input").fill(name)
      await page.getByRole("button", { name: "Save" }).click()
      await expect(page.getByTestId("saved")).toBeVisible()
      await expect(page.getByTestId("profile-name")).toHaveText(name)
      await expect(page.getByTestId("header-user")).toHaveText(name)
      await expect(page.getByTestId("name-input")).toHaveValue(name)
    }
    try {
      await save("Bob, without scripts")
      // Not a GET with the name in the address.
      expect(new URL(page.url()).searchParams.has("name")).toBe(false)
      const session = await (await page.request.get("/auth/session")).json()
      expect(session.user.name).toBe("Bob, without scripts")
    } finally {
      // With database sessions the name is stored: give it back for the other tests.
      await save(before || BOB.name)
    }
  })

  test("a form posted after the session ended says so, with a link to sign in", async ({
    page,
  }) => {
    await signInByApi(page, ALICE)
    await page.goto("/profile")
    await loseSession(page)
    await page.getByTestId("name-input").fill("Nobody at all")
    await page.getByRole("button", { name: "Save" }).click()
    // The page the server renders with the form's answer: the message, and nothing of the
    // account (not a redirect that would drop the message).
    const message = page.getByTestId("form-signed-out")
    await expect(message).toHaveRole("alert")
    await expect(message).toContainText("You are signed out — sign in again")
    await expect(message.getByRole("link", { name: "sign in again" })).toHaveAttribute(
      "href",
      SIGN_IN_HERE,
    )
    await expect(page.getByTestId("profile-name")).toHaveCount(0)
    await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0)
  })

  test("the passkey button is disabled and says it needs JavaScript", async ({ page }) => {
    await signInByApi(page, ALICE)
    await page.goto("/profile")
    await expect(page.getByTestId("add-passkey")).toBeDisabled()
    await expect(page.getByTestId("passkey-needs-javascript")).toContainText("needs JavaScript")
  })
})

test("with JavaScript, the passkey button is enabled once the page is hydrated", async ({
  page,
}) => {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  await expect(page.getByTestId("passkey-needs-javascript")).toHaveCount(0)
})
