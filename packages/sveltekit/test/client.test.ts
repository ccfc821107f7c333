/**
 * The client helpers against a real SvelteKit app (test/app, adapter-node), built once and
 * served on 127.0.0.1. The helpers run here under a minimal browser shim: `location`, and
 * a `fetch` that resolves relative URLs against the app's origin, keeps cookies in a jar and
 * sends `Origin` on POSTs, as a browser does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { getSession, signIn, signOut, updateSession } from "../src/lib/client.js"
import { startApp, type RunningApp } from "./helpers/app.js"
import { SESSION_COOKIE, setCookies } from "./helpers/event.js"

const SECRET = "client-test-secret-long-enough-0123456789abcdef"

const realFetch = globalThis.fetch
let app: RunningApp | undefined
let ORIGIN = ""

/** The browser: a cookie jar, and whether POSTs carry an Origin header. */
const browser = {
  cookies: new Map<string, string>(),
  sendOrigin: true,
  requests: [] as { method: string; url: string }[],
}

/** `fetch` as a page of the app sees it. */
async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input), `${ORIGIN}/`)
  if (url.origin !== ORIGIN) throw new Error(`unexpected cross-origin fetch to ${url}`)
  const method = (init.method ?? "GET").toUpperCase()
  const headers = new Headers(init.headers)
  if (browser.cookies.size)
    headers.set(
      "cookie",
      [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    )
  if (method !== "GET" && method !== "HEAD" && browser.sendOrigin) headers.set("origin", ORIGIN)
  if (!headers.has("accept")) headers.set("accept", "*/*")
  browser.requests.push({ method, url: url.href })
  const response = await realFetch(url, { ...init, method, headers, redirect: "manual" })
  for (const cookie of setCookies(response)) {
    if (cookie.deleted) browser.cookies.delete(cookie.name)
    else browser.cookies.set(cookie.name, cookie.value)
  }
  return response
}

beforeAll(async () => {
  app = await startApp("client", { AUTH_SECRET: SECRET })
  ORIGIN = app.origin
  // A browser's `location` is `window.location`: the helpers use either.
  const page = { location: { href: `${ORIGIN}/`, reload() {} } }
  vi.stubGlobal("window", page)
  vi.stubGlobal("location", page.location)
  vi.stubGlobal("fetch", browserFetch)
}, 120_000)

afterAll(async () => {
  vi.unstubAllGlobals()
  await app?.stop()
})

beforeEach(() => {
  ;(globalThis as unknown as { window: { location: { href: string } } }).window.location.href =
    `${ORIGIN}/`
  browser.sendOrigin = true
})

const location = () =>
  (globalThis as unknown as { window: { location: { href: string } } }).window.location.href

describe("client helpers against a running app", () => {
  it("getSession() is null when signed out", async () => {
    expect(await getSession()).toBeNull()
  })

  it("signIn with a wrong password reports CredentialsSignin with its code", async () => {
    const result = await signIn("credentials", {
      username: "alice",
      password: "nope",
      redirect: false,
    })
    expect(result).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
    expect(result!.url).toBeNull()
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
    expect(await getSession()).toBeNull()
  })

  it("signIn with credentials and redirect: false signs in", async () => {
    const result = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      redirect: false,
    })
    expect(result).toMatchObject({ ok: true, error: undefined, code: undefined, status: 200 })
    expect(new URL(result!.url!).origin).toBe(ORIGIN)
    expect(location()).toBe(`${ORIGIN}/`)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
    expect(await getSession()).toMatchObject({
      user: { name: "Alice", email: "alice@example.com" },
      expires: expect.any(String),
    })
  })

  it("signs in with one request: no CSRF round trip, the origin check covers the form post", async () => {
    browser.cookies.clear()
    const before = browser.requests.length
    const result = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      redirect: false,
    })
    expect(result?.ok).toBe(true)
    expect(
      browser.requests.slice(before).map((r) => `${r.method} ${new URL(r.url).pathname}`),
    ).toEqual(["POST /auth/signin/credentials"])
  })

  it("rejects with SvelteKit's reason when a sign-in post is refused as cross-site", async () => {
    browser.cookies.clear()
    browser.sendOrigin = false
    await expect(
      signIn("credentials", { username: "alice", password: "wonderland", redirect: false }),
    ).rejects.toThrow(/Cross-site/)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
    browser.sendOrigin = true
    await signIn("credentials", { username: "alice", password: "wonderland", redirect: false })
  })

  it("locals.auth() on a page sees the session", async () => {
    const response = await browserFetch("/", { headers: { accept: "text/html" } })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain("alice@example.com")
  })

  it("updateSession(data) runs the jwt callback with trigger update", async () => {
    const updated = await updateSession({ name: "New" })
    expect(updated).toMatchObject({ user: { name: "New", email: "alice@example.com" } })
    expect(await getSession()).toMatchObject({ user: { name: "New" } })
  })

  it("updateSession works on the double-submit token alone (no Origin header)", async () => {
    browser.sendOrigin = false
    const updated = await updateSession({ name: "Newer" })
    expect(updated).toMatchObject({ user: { name: "Newer" } })
    expect(await getSession()).toMatchObject({ user: { name: "Newer" } })
  })

  it("signOut({ redirect: false }) ends the session and stays on the page", async () => {
    const { url } = await signOut({ redirect: false })
    expect(new URL(url).origin).toBe(ORIGIN)
    expect(location()).toBe(`${ORIGIN}/`)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
    expect(await getSession()).toBeNull()
  })

  it("signIn() without a provider navigates to the sign-in page", async () => {
    const requests = browser.requests.length
    const result = await signIn()
    expect(result).toBeUndefined()
    expect(location()).toBe(`/auth/signin?${new URLSearchParams({ callbackUrl: `${ORIGIN}/` })}`)
    expect(browser.requests.length).toBe(requests)
    const page = await browserFetch(location())
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("/auth/callback/credentials")
  })

  it("signIn with credentials and redirect navigates to redirectTo", async () => {
    const result = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      redirectTo: "/dashboard",
    })
    expect(result).toBeUndefined()
    expect(location()).toBe(`${ORIGIN}/dashboard`)
    expect(await getSession()).toMatchObject({ user: { name: "Alice" } })
    await signOut({ redirect: false })
  })

  it("the signIn form action answers a form POST with 303 and the session cookie", async () => {
    const response = await realFetch(`${ORIGIN}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: ORIGIN,
        accept: "text/html",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        providerId: "credentials",
        username: "alice",
        password: "wonderland",
        redirectTo: "/welcome",
      }),
    })
    expect(response.status).toBe(303)
    expect(new URL(response.headers.get("location")!, ORIGIN).href).toBe(`${ORIGIN}/welcome`)
    const session = setCookies(response).find((cookie) => cookie.name === SESSION_COOKIE)
    expect(session?.deleted).toBe(false)
    expect(session?.attributes).toHaveProperty("httponly")
    const check = await realFetch(`${ORIGIN}/auth/session`, {
      headers: { cookie: `${SESSION_COOKIE}=${session!.value}` },
    })
    expect(await check.json()).toMatchObject({ user: { name: "Alice" } })
  })

  it("refuses a cross-site form POST to /auth/signout without a token (403)", async () => {
    const response = await realFetch(`${ORIGIN}/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    })
    expect(response.status).toBe(403)
  })

  it("refuses a cross-site JSON POST without a token in the handle itself (403)", async () => {
    // Not a form content type: SvelteKit's own origin check lets it through to the handle.
    const response = await realFetch(`${ORIGIN}/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "CrossSiteRequest" })
  })
})
