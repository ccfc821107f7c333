import { expect, test } from "@playwright/test"
import { ALICE, screenshot, signInByApi } from "./support"

declare global {
  interface Window {
    __marker?: number
  }
}

// With database sessions Alice's name is stored: each test gives it back, passed or failed, for
// the files that run after this one and expect it.
test.afterEach(async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  await page.getByTestId("name-input").fill(ALICE.name)
  await page.getByRole("button", { name: "Save", exact: true }).click()
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
})

test("the profile page updates the session without a reload", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)

  // A reload would drop this.
  await page.evaluate(() => {
    window.__marker = 1
  })
  const newName = "Alice in Wonderland"
  await page.getByTestId("name-input").fill(newName)
  await page.getByRole("button", { name: "Save" }).click()

  await expect(page.getByTestId("saved")).toBeVisible()
  await expect(page.getByTestId("header-user")).toHaveText(newName)
  await expect(page.getByTestId("profile-name")).toHaveText(newName)
  expect(await page.evaluate(() => window.__marker), "the page was not reloaded").toBe(1)
  await screenshot(page, "profile-saved")

  // The new name is in the session cookie: it survives a reload and shows on home.
  await page.reload()
  expect(await page.evaluate(() => window.__marker)).toBeUndefined()
  await expect(page.getByTestId("header-user")).toHaveText(newName)
  await expect(page.getByTestId("name-input")).toHaveValue(newName)
  await page.goto("/")
  await expect(page.getByTestId("user-name")).toHaveText(newName)
  const session = await (await page.request.get("/auth/session")).json()
  expect(session.user.name).toBe(newName)
})

test("a blank name is refused by the server", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  // With database sessions the name is stored: an earlier test may have changed it.
  const before = (await page.getByTestId("profile-name").textContent()) ?? ""
  expect(before.trim()).not.toBe("")
  // Only spaces: the input's `required` is satisfied, the server keeps the old name.
  await page.getByTestId("name-input").fill("   ")
  await page.getByRole("button", { name: "Save" }).click()
  const error = page.getByTestId("name-error")
  await expect(error).toHaveRole("alert")
  await expect(error).toHaveText("Enter a name: spaces alone are not one.")
  // "Saving…" turns back into "Save" once the answer is in.
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled()
  await expect(page.getByTestId("saved")).toHaveCount(0)
  await expect(page.getByTestId("header-user")).toHaveText(before.trim())
  await page.reload()
  await expect(page.getByTestId("header-user")).toHaveText(before.trim())
})
