import { request as httpRequest } from "node:http"
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
      await expect(page.getByTestId("signin-form")).toBeVisible()
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
      await expect(page).toHaveURL(/\/signin\?/)
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

/**
 * One GET with the path on the request line exactly as written (Playwright's client, like a
 * browser, would resolve `/x/../admin` or read `//admin` as a host first).
 */
function rawGet(path: string, cookie?: string) {
  const base = new URL(test.info().project.use.baseURL ?? "")
  return new Promise<{ status: number; location: string; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { host: base.host, accept: "text/html" }
    if (cookie) headers.cookie = cookie
    const request = httpRequest(
      { hostname: "127.0.0.1", port: base.port, path, headers },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? "",
            body,
          }),
        )
      },
    )
    request.on("error", reject)
    request.end()
  })
}

// The guard matches the route SvelteKit picked and the decoded path, not the URL's spelling:
// each of these reaches /admin (or would, on a looser router) and must not open it.
const spelledOtherwise: [path: string, callbackUrl: string][] = [
  ["/%61dmin", "/%61dmin"],
  ["/%41dmin", "/%41dmin"],
  ["/ADMIN", "/ADMIN"],
  ["/ad%6Din/settings?tab=keys", "/ad%6Din/settings?tab=keys"],
  ["//admin", "/admin"],
  ["/admin//settings", "/admin//settings"],
  ["/x/../admin", "/admin"],
  ["/%2e%2e/admin", "/admin"],
  ["/admin%2Fsettings", "/admin%2Fsettings"],
]

test.describe("an anonymous visitor spelling /admin otherwise", () => {
  for (const [path, callbackUrl] of spelledOtherwise) {
    test(`GET ${path} answers 303 to the sign-in page`, async () => {
      const response = await rawGet(path)
      expect(response.status).toBe(303)
      expect(response.location.startsWith("/signin?")).toBe(true)
      expect(new URLSearchParams(response.location.split("?")[1]).get("callbackUrl")).toBe(
        callbackUrl,
      )
      expect(response.body).not.toContain("admin-title")
    })
  }

  test("GET /admin/ is sent to /admin by SvelteKit, which is guarded", async () => {
    const response = await rawGet("/admin/")
    expect(response.status).toBe(308)
    expect(response.location).toBe("/admin")
  })

  test("a data request for /%61dmin gets a redirect to the sign-in page, not the data", async () => {
    const response = await rawGet("/%61dmin/__data.json?x-sveltekit-invalidated=01")
    expect(response.status).toBe(200)
    const body = JSON.parse(response.body) as { type: string; location: string }
    expect(body.type).toBe("redirect")
    expect(body.location.startsWith("/signin?")).toBe(true)
  })

  test("lands on the sign-in page when opening /%61dmin", async ({ page }) => {
    await page.goto("/%61dmin")
    await expect(page).toHaveURL(/\/signin\?/)
    expect(callbackUrlOf(page.url())).toMatch(/^\/(%61|a)dmin$/)
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible()
  })
})

test("a signed-in user opens /admin, and /%61dmin too", async ({ page }) => {
  await signInByApi(page, ALICE)
  const cookie = (await page.context().cookies())
    .map(({ name, value }) => `${name}=${value}`)
    .join("; ")
  for (const path of ["/admin", "/%61dmin"]) {
    const response = await rawGet(path, cookie)
    expect(response.status, path).toBe(200)
    expect(response.body, path).toContain('data-testid="admin-title"')
  }
  const response = await page.goto("/admin")
  expect(response?.status()).toBe(200)
  await expect(page.getByTestId("admin-title")).toBeVisible()
})
