import { expect, test } from "@playwright/test"
import { ALICE, callbackUrlOf, screenshot, signInByApi } from "./support"

// /about is prerendered at build time (export const prerender = true) and renders <SignIn/>.

test("/about is served from the prerendered file", async ({ request }) => {
  const response = await request.get("/about")
  expect(response.status()).toBe(200)
  const html = await response.text()
  // The page's content is in the HTML itself, with the sign-in form posting to /signin.
  expect(html).toContain("This page is prerendered.")
  expect(html).toMatch(/<form[^>]*method="POST"[^>]*action="(?:\.\/|\/)signin"/)
  // adapter-node serves prerendered pages as static files, with validators, not via SSR.
  expect(response.headers()["etag"] ?? response.headers()["last-modified"]).toBeTruthy()
})

test("the <SignIn/> button of /about leads to the sign-in page", async ({ page }) => {
  const response = await page.goto("/about")
  expect(response?.status()).toBe(200)
  await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeVisible()
  await screenshot(page, "about")

  await page.getByRole("button", { name: "Go to the sign-in page" }).click()
  // No provider in the form: the signIn action sends the visitor to the sign-in page.
  await expect(page).toHaveURL(/\/auth\/signin\?/)
  expect(callbackUrlOf(page.url())).toBeTruthy()
  await expect(
    page.getByRole("button", { name: "Sign in with Username and password" }),
  ).toBeVisible()
})

test("a signed-in user opening /about sees their name in the header", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/about")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
})

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false })

  test("the <SignIn/> button of /about still leads to the sign-in page", async ({ page }) => {
    await page.goto("/about")
    await page.getByRole("button", { name: "Go to the sign-in page" }).click()
    await expect(page).toHaveURL(/\/auth\/signin\?/)
    await expect(
      page.getByRole("button", { name: "Sign in with Username and password" }),
    ).toBeVisible()
  })
})
