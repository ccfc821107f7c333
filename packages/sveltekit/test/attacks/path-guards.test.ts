/**
 * Attack: reaching a guarded page by spelling its path otherwise.
 *
 * SvelteKit routes on the decoded path (`/%61dmin` is `/admin`), ignores route groups, follows
 * `reroute`, and strips `/__data.json` from data requests, while `event.url.pathname` keeps the
 * spelling the client chose. A guard that tests that string (`pathname.startsWith("/admin")`)
 * hands the page, its data, its endpoint and its form actions to anyone who spells the path
 * otherwise. Each case: the attacker's request, over HTTP with the path as written, to the real
 * app of test/app guarded by `protect(["/admin", "/staff", "/reports", { path: "/owner", allow }])`,
 * and the safe outcome — a 303 to the sign-in page (a JSON redirect for data requests), a 403
 * for a signed-in user without the role, or SvelteKit's own refusal or redirect (itself
 * guarded) — never the protected content.
 *
 * `LATCH_TEST_GUARD=startsWith` runs the same cases against the old string test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  rawRequest,
  signInWithCredentials,
  startApp,
  type RawResponse,
  type RunningApp,
} from "../helpers/app.js"

const SECRET = "path-guard-attack-secret-long-enough-0123456789"

/** The safe outcome of an anonymous request. */
type Outcome =
  | { signIn: string } // 303 to the sign-in page, with this callbackUrl
  | { data: string } // a data request's JSON redirect to the sign-in page, with this callbackUrl
  | { normalize: string } // SvelteKit's 308 to this path, which is then guarded
  | { refused: 400 | 404 } // SvelteKit refuses the path itself

let app: RunningApp
const send = (path: string, init: Parameters<typeof rawRequest>[2] = {}) =>
  rawRequest(app.origin, path, { ...init, headers: { accept: "text/html", ...init.headers } })

beforeAll(async () => {
  app = await startApp("path-guards", { AUTH_SECRET: SECRET })
}, 120_000)

afterAll(() => app?.stop())

/** The callbackUrl a redirect to the sign-in page carries. */
function callbackOf(location: string | undefined): string | null {
  const url = new URL(location ?? "", app.origin)
  expect(url.origin + url.pathname).toBe(`${app.origin}/auth/signin`)
  return url.searchParams.get("callbackUrl")
}

async function expectSafe(response: RawResponse, outcome: Outcome, path = "/"): Promise<void> {
  expect(response.body).not.toContain("PROTECTED")
  if ("signIn" in outcome) {
    expect(response.status).toBe(303)
    expect(callbackOf(response.location)).toBe(outcome.signIn)
  } else if ("data" in outcome) {
    expect(response.status).toBe(200)
    const body = JSON.parse(response.body) as { type: string; location?: string }
    expect(body.type).toBe("redirect")
    expect(callbackOf(body.location)).toBe(outcome.data)
  } else if ("normalize" in outcome) {
    expect(response.status).toBe(308)
    // SvelteKit 2 answers an absolute path, SvelteKit 3 a relative one ("../admin").
    const target = new URL(response.location ?? "", new URL(path, app.origin))
    expect(target.origin + target.pathname + target.search).toBe(app.origin + outcome.normalize)
    await expectSafe(await send(outcome.normalize), { signIn: outcome.normalize })
  } else {
    expect(response.status).toBe(outcome.refused)
  }
}

const cases: Record<string, [path: string, outcome: Outcome][]> = {
  "percent-encoded letters": [
    ["/%61dmin", { signIn: "/%61dmin" }],
    ["/%41dmin", { signIn: "/%41dmin" }],
    ["/ad%6Din/settings", { signIn: "/ad%6Din/settings" }],
    ["/%61dmin/api", { signIn: "/%61dmin/api" }],
    ["/%73taff", { signIn: "/%73taff" }],
    ["/%72eports/1", { signIn: "/%72eports/1" }],
    ["/%61dmin/settings?tab=keys", { signIn: "/%61dmin/settings?tab=keys" }],
  ],
  "other letter case": [
    ["/ADMIN", { signIn: "/ADMIN" }],
    ["/Admin/Settings", { signIn: "/Admin/Settings" }],
    ["/STAFF", { signIn: "/STAFF" }],
    ["/Reports/1", { signIn: "/Reports/1" }],
  ],
  "doubled slashes": [
    ["//admin", { signIn: "/admin" }],
    ["//%61dmin", { signIn: "/%61dmin" }],
    ["/admin//settings", { signIn: "/admin//settings" }],
    ["/reports//1", { signIn: "/reports//1" }],
  ],
  "trailing slashes": [
    ["/admin/", { normalize: "/admin" }],
    ["/%61dmin/", { normalize: "/%61dmin" }],
    ["/ad%6Din/settings/", { normalize: "/ad%6Din/settings" }],
  ],
  "dot segments": [
    ["/x/../admin", { signIn: "/admin" }],
    ["/./admin", { signIn: "/admin" }],
    ["/%2e%2e/admin", { signIn: "/admin" }],
    ["/x/%2E%2E/admin", { signIn: "/admin" }],
    ["/reports/%2e%2e/admin", { signIn: "/admin" }],
    ["/admin/%2e/settings", { signIn: "/admin/settings" }],
  ],
  "encoded and back slashes": [
    ["/admin%2Fsettings", { signIn: "/admin%2Fsettings" }],
    ["/admin%2fsettings", { signIn: "/admin%2fsettings" }],
    ["/reports%2F1", { signIn: "/reports%2F1" }],
    ["/admin\\settings", { signIn: "/admin/settings" }],
  ],
  "data requests of client-side navigation": [
    ["/admin/__data.json", { data: "/admin" }],
    ["/%61dmin/__data.json", { data: "/%61dmin" }],
    ["/%61dmin/__data.json?x-sveltekit-invalidated=01", { data: "/%61dmin" }],
    ["/ADMIN/settings/__data.json?x-sveltekit-invalidated=011", { data: "/ADMIN/settings" }],
    ["/%61dmin/__data.json?x-sveltekit-trailing-slash=1", { data: "/%61dmin/" }],
    ["/%73taff/__data.json", { data: "/%73taff" }],
  ],
  "paths SvelteKit maps onto a guarded route": [
    ["/verwaltung", { signIn: "/verwaltung" }], // reroute → /admin
  ],
  "paths SvelteKit refuses": [
    ["/%61dmin%", { refused: 400 }],
    ["/(staff)/staff", { refused: 404 }],
  ],
}

describe("an anonymous attacker spelling a guarded path otherwise", () => {
  for (const [kind, list] of Object.entries(cases)) {
    describe(kind, () => {
      it.each(list)("GET %s is kept out", async (path, outcome) => {
        await expectSafe(await send(path), outcome, path)
      })
    })
  }

  it("HEAD /%61dmin is kept out", async () => {
    await expectSafe(await send("/%61dmin", { method: "HEAD" }), { signIn: "/%61dmin" })
  })

  it("POST to a guarded form action, spelled otherwise, does not run it", async () => {
    const post = (accept: string) =>
      send("/%61dmin/settings", {
        method: "POST",
        headers: {
          accept,
          origin: app.origin,
          "content-type": "application/x-www-form-urlencoded",
          "x-sveltekit-action": "true",
        },
        body: "name=x",
      })
    await expectSafe(await post("text/html"), { signIn: "/%61dmin/settings" })
    const enhanced = await post("application/json")
    expect(enhanced.body).not.toContain("PROTECTED")
    expect(JSON.parse(enhanced.body)).toMatchObject({ type: "redirect", status: 303 })
  })
})

describe("a signed-in attacker without the role spelling a path otherwise", () => {
  it.each(["/owner", "/%6Fwner", "/OWNER", "//owner", "/x/../owner", "/%6fwner/__data.json"])(
    "GET %s is refused with 403",
    async (path) => {
      const { cookie } = await signInWithCredentials(app.origin, "bob", "builder")
      const response = await send(path, { headers: { cookie } })
      expect(response.body).not.toContain("PROTECTED")
      expect(response.status).toBe(403)
    },
  )
})
