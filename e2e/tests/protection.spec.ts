import { expect, test } from "@playwright/test"
import { ALICE, callbackUrlOf, signInByApi } from "./support"

// /protected checks the session in its own load; everything under /admin is guarded by a
// handle in hooks.server.ts. Both answer an anonymous visitor with 303 to the sign-in page.
const guarded = ["/protected", "/admin", "/admin/settings"]

test.describe("an anonymous visitor", () => {
  for (const path of guarded) {
    test(`gets a 303 to /signin with callbackUrl from ${path}`, async ({ request }) => {
      const response = await request.get(path, { maxRedirects: 0 })
      expect(response.status()).toBe(303)
      const location = response.headers()["location"] ?? ""
      expect(location.startsWith("/signin?")).toBe(true)
      expect(new URLSearchParams(location.split("?")[1]).get("callbackUrl")).toBe(path)
    })

    test(`lands on the sign-in page when opening ${path}`, async ({ page }) => {
      await page.goto(path)
      await expect(page).toHaveURL(/\/signin\?/)
      expect(callbackUrlOf(page.url())).toBe(path)
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible()
      await expect(page.getByTestId("client-form")).toBeVisible()
    })
  }

  test("keeps the query string of the requested page in callbackUrl", async ({ request }) => {
    const response = await request.get("/admin/settings?tab=keys", { maxRedirects: 0 })
    expect(response.status()).toBe(303)
    const location = response.headers()["location"] ?? ""
    expect(new URLSearchParams(location.split("?")[1]).get("callbackUrl")).toBe(
      "/admin/settings?tab=keys",
    )
  })

  // The header's links navigate without a reload: the guard must hold there too.
  for (const [label, path] of [
    ["Protected", "/protected"],
    ["Admin", "/admin"],
  ] as const) {
    test(`is sent to sign in on a client-side navigation to ${path}`, async ({ page }) => {
      await page.goto("/")
      await expect(page.getByTestId("signed-out")).toBeVisible()
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: label })
        .click()
      await expect(page).toHaveURL(/\/signin\?/, { timeout: 3_000 })
      expect(callbackUrlOf(page.url())).toBe(path)
    })
  }
})

test("a signed-in user opens every guarded page", async ({ page }) => {
  await signInByApi(page, ALICE)
  for (const [path, title] of [
    ["/protected", "protected-title"],
    ["/admin", "admin-title"],
    ["/admin/settings", "admin-settings-title"],
  ] as const) {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await expect(page).toHaveURL(path)
    await expect(page.getByTestId(title)).toBeVisible()
  }
})
