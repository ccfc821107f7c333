/**
 * The client helpers under `paths.base` and a custom `basePath`: their `fetch` calls are routed
 * in-process through a `handle` built with the same paths, so every URL they build is checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { getSession, signIn, signOut, updateSession } from "../src/lib/client.js"
import { SvelteKitAuth } from "../src/lib/index.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, SESSION_COOKIE } from "./helpers/event.js"
import { setBase } from "./stubs/app-paths.js"

const window = { location: { href: `${ORIGIN}/app/page`, reload() {} } }
let browser: Browser
const requests: string[] = []

/** `fetch` as a page sees it, answered by `browser`'s handle. */
async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), window.location.href)
  expect(url.origin).toBe(ORIGIN)
  const method = (init.method ?? "GET").toUpperCase()
  const headers = new Headers(init.headers)
  if (method === "POST") headers.set("origin", ORIGIN)
  requests.push(`${method} ${url.pathname}`)
  const { response, resolve } = await browser.fetch(`${url.pathname}${url.search}`, {
    ...init,
    method,
    headers,
  })
  // Every call of the helpers is an auth action: none may fall through to the app.
  expect(resolve, `${method} ${url.pathname}`).not.toHaveBeenCalled()
  return response
}

beforeAll(() => {
  vi.stubGlobal("window", window)
  vi.stubGlobal("location", window.location)
  vi.stubGlobal("fetch", browserFetch)
})
afterAll(() => vi.unstubAllGlobals())
afterEach(() => {
  setBase("")
  requests.length = 0
  window.location.href = `${ORIGIN}/app/page`
})

describe.each([
  { base: "/app", basePath: "/api/auth", authBase: "/app/api/auth" },
  { base: "/app", basePath: undefined, authBase: "/app/auth" },
  { base: "", basePath: "/api/auth", authBase: "/api/auth" },
])(
  "client helpers with paths.base=$base and basePath=$basePath",
  ({ base, basePath, authBase }) => {
    const options = basePath ? { basePath } : {}

    it("run a whole session under the full path", async () => {
      setBase(base)
      browser = new Browser(SvelteKitAuth(testConfig(options)).handle)
      const wrong = await signIn("credentials", {
        ...options,
        username: "alice",
        password: "nope",
        redirect: false,
      })
      expect(wrong).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })

      const result = await signIn("credentials", {
        ...options,
        username: "alice",
        password: "wonderland",
        redirect: false,
      })
      expect(result).toMatchObject({ ok: true, error: undefined })
      expect(result!.url).toBe(`${ORIGIN}/app/page`)
      expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
      expect(await getSession(options)).toMatchObject({ user: { name: "Alice" } })

      const updated = await updateSession({ anything: 1 }, options)
      expect(updated).toMatchObject({ user: { name: "Alice" } })

      const { url } = await signOut({ ...options, redirect: false, redirectTo: `${base}/bye` })
      expect(url).toBe(`${ORIGIN}${base}/bye`)
      expect(await getSession(options)).toBeNull()

      expect(requests.length).toBeGreaterThan(0)
      for (const request of requests) expect(request).toMatch(new RegExp(`^\\w+ ${authBase}/`))
    })

    it("send signIn() without a provider to the sign-in page under the full path", async () => {
      setBase(base)
      await signIn(undefined, options)
      const target = new URL(window.location.href, ORIGIN)
      expect(target.pathname).toBe(`${authBase}/signin`)
      expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/app/page`)
    })
  },
)
