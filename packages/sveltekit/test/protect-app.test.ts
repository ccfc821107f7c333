/**
 * `protect` over HTTP, in the real SvelteKit app of test/app (adapter-node), built and served on
 * 127.0.0.1. Its hooks run `sequence(handle, protect([...]))` over `/admin` (a page, a child
 * page with a form action, an endpoint), `/staff` (a route in a group), `/reports/[id]` and
 * `/owner` (Alice only); `/[slug]` is a public catch-all, `/verwaltung` is rerouted to `/admin`.
 * Every protected page's content says "PROTECTED".
 *
 * Requests go out with the path exactly as written (test/helpers/app.ts's `rawRequest`), since
 * `fetch` would normalize some of them first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  rawRequest,
  signInWithCredentials,
  startApp,
  type RawResponse,
  type RunningApp,
} from "./helpers/app.js"

const SECRET = "protect-test-secret-long-enough-0123456789abcdef"

let app: RunningApp
const signIn = (username: string, password: string, callbackUrl?: string) =>
  signInWithCredentials(app.origin, username, password, callbackUrl)
const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(app.origin, path, { headers: { accept: "text/html", ...headers } })

beforeAll(async () => {
  app = await startApp("protect", { AUTH_SECRET: SECRET })
}, 120_000)

afterAll(() => app?.stop())

/** The `callbackUrl` of a redirect to the built-in sign-in page; fails on any other answer. */
function signInCallback(response: RawResponse): string | null {
  expect(response.body).not.toContain("PROTECTED")
  expect(response.status).toBe(303)
  const location = new URL(response.location!, app.origin)
  expect(location.origin + location.pathname).toBe(`${app.origin}/auth/signin`)
  return location.searchParams.get("callbackUrl")
}

/**
 * What SvelteKit answers a client-side navigation's data request that `handle` redirected: a
 * 200 JSON `{ type: "redirect", location }` the router follows.
 */
function dataRedirect(response: RawResponse): string {
  expect(response.body).not.toContain("PROTECTED")
  expect(response.status).toBe(200)
  const body = JSON.parse(response.body) as { type: string; location: string }
  expect(body.type).toBe("redirect")
  expect(body.location).toMatch(/^\/auth\/signin\?/)
  return new URL(body.location, app.origin).searchParams.get("callbackUrl")!
}

describe("an anonymous visitor", () => {
  it.each([
    ["/admin", "a page"],
    ["/admin/settings", "a page below it"],
    ["/admin/api", "a +server.js endpoint"],
    ["/staff", "a route inside a (group)"],
    ["/reports/1", "a [param] route"],
    ["/owner", "a page with an allow rule"],
  ])("gets a 303 to the sign-in page from %s (%s)", async (path) => {
    expect(signInCallback(await get(path))).toBe(path)
  })

  it("comes back to the path and query asked for", async () => {
    expect(signInCallback(await get("/admin/settings?tab=keys&q=a%20b"))).toBe(
      "/admin/settings?tab=keys&q=a%20b",
    )
  })

  it("gets a redirect for data requests of client-side navigations", async () => {
    expect(dataRedirect(await get("/admin/__data.json"))).toBe("/admin")
    expect(dataRedirect(await get("/admin/settings/__data.json?x-sveltekit-invalidated=01"))).toBe(
      "/admin/settings",
    )
  })

  it("gets a 303 for a form action, which does not run (a JSON redirect with use:enhance)", async () => {
    const post = (accept: string) =>
      rawRequest(app.origin, "/admin/settings", {
        method: "POST",
        headers: {
          origin: app.origin,
          accept,
          "content-type": "application/x-www-form-urlencoded",
          "x-sveltekit-action": "true",
        },
        body: "name=x",
      })
    expect(signInCallback(await post("text/html"))).toBe("/admin/settings")
    const enhanced = await post("application/json")
    expect(enhanced.body).not.toContain("PROTECTED")
    expect(JSON.parse(enhanced.body)).toMatchObject({
      type: "redirect",
      status: 303,
      location: "/auth/signin?callbackUrl=%2Fadmin%2Fsettings",
    })
  })

  it("opens public pages, and the prerendered one that links to guarded pages", async () => {
    const about = await get("/about")
    expect(about.status).toBe(200)
    expect(about.body).toContain("public about page")
    const page = await get("/administrator")
    expect(page.status).toBe(200)
    expect(page.body).toContain("public page administrator")
  })
})

describe("a signed-in user", () => {
  it("opens every guarded path, however it is spelled", async () => {
    const { cookie } = await signIn("alice", "wonderland")
    for (const path of [
      "/admin",
      "/%61dmin",
      "/admin/settings",
      "/staff",
      "/reports/1",
      "/owner",
    ]) {
      const response = await get(path, { cookie })
      expect(response.status, path).toBe(200)
      expect(response.body, path).toContain("PROTECTED")
    }
    const data = await get("/%61dmin/__data.json", { cookie })
    expect(JSON.parse(data.body)).toMatchObject({ type: "data" })
    expect((await get("/admin/api", { cookie })).body).toContain("PROTECTED admin api")
  })

  it("comes back where they were sent from, and the page opens", async () => {
    const callbackUrl = signInCallback(await get("/%61dmin/settings?tab=keys"))!
    const { cookie, location } = await signIn("alice", "wonderland", callbackUrl)
    expect(location.href).toBe(`${app.origin}/%61dmin/settings?tab=keys`)
    const page = await get(location.pathname + location.search, { cookie })
    expect(page.status).toBe(200)
    expect(page.body).toContain("PROTECTED admin settings")
  })

  it("gets a 403 where the allow rule refuses them, and the rest opens", async () => {
    const { cookie } = await signIn("bob", "builder")
    for (const path of ["/owner", "/%6Fwner", "/OWNER", "/owner/__data.json"]) {
      const response = await get(path, { cookie })
      expect(response.body, path).not.toContain("PROTECTED")
      expect(response.status, path).toBe(403)
    }
    expect((await get("/admin", { cookie })).status).toBe(200)
  })
})
