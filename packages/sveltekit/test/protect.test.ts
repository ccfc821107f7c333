/**
 * `protect` and `isProtectedPath` on hand-built request events: which requests they cover (by
 * route id and by decoded path), where anonymous visitors go, the `allow` check, prerendering.
 * test/protect-app.test.ts and test/attacks/path-guards.test.ts hold them against a real app.
 */
import type { Session } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"
import { afterEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth, isProtectedPath, protect, type ProtectRule } from "../src/lib/index.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, createEvent, createResolve, type TestEvent } from "./helpers/event.js"
import { setBuilding } from "./stubs/app-environment.js"
import { setBase } from "./stubs/app-paths.js"

const ALICE: Session = { user: { name: "Alice", email: "alice@example.com" }, expires: "" }

/** An event for `path`, routed to `routeId`, whose `locals.auth()` answers `session`. */
function eventFor(path: string, routeId: string | null = null, session: Session | null = null) {
  const event = createEvent(path)
  event.route = { id: routeId } as TestEvent["route"]
  const auth = vi.fn(async () => session)
  event.locals.auth = auth
  return { event, auth }
}

/** A request whose path reaches the hooks as written (`new URL` would normalize it). */
function rawEvent(pathname: string, routeId: string | null = null) {
  return { url: { pathname } as URL, route: { id: routeId } } as Pick<RequestEvent, "url" | "route">
}

/** Runs a guard on an event: the response, or what it threw. */
async function guarded(handle: ReturnType<typeof protect>, event: TestEvent) {
  const resolve = createResolve()
  try {
    const response = await handle({ event, resolve })
    return { response, resolve, thrown: undefined }
  } catch (thrown) {
    return { response: undefined, resolve, thrown: thrown as { status: number; location?: string } }
  }
}

afterEach(() => {
  setBase("")
  setBuilding(false)
  vi.restoreAllMocks()
})

describe("isProtectedPath: the decoded, normalized path", () => {
  it.each([
    "/admin",
    "/admin/",
    "/admin/settings",
    "/admin/settings/",
    "/ADMIN",
    "/Admin/Settings",
    "/%61dmin",
    "/%41DMIN",
    "/ad%6Din/settings",
    "//admin",
    "/admin//settings",
    "///admin///",
    "/./admin",
    "/x/../admin",
    "/x/%2e%2e/admin",
    "/x/%2E%2E/admin",
    "/%2e%2e/admin",
    "/../../admin",
    "/admin%2Fsettings",
    "/admin%2fsettings",
    "/x%2F..%2Fadmin",
    "/%2Fadmin",
    "/admin/__data.json",
  ])("covers %s", (path) => {
    expect(isProtectedPath(rawEvent(path), "/admin")).toBe(true)
  })

  it.each([
    "/",
    "/administrator",
    "/adminx",
    "/admin.json",
    "/public/admin",
    "/admin/../public",
    "/admin%2F..%2Fpublic",
    // Decoded once only, as SvelteKit does: this is the page "%61dmin", not "admin".
    "/%2561dmin",
    "/admin%00",
  ])("does not cover %s", (path) => {
    expect(isProtectedPath(rawEvent(path), "/admin")).toBe(false)
  })

  it("decodes what it can of a malformed path", () => {
    expect(isProtectedPath(rawEvent("/%61dmin/%"), "/admin")).toBe(true)
    expect(isProtectedPath(rawEvent("/%61%64%6d%69%6e%FF/x"), "/admin")).toBe(false)
    expect(isProtectedPath(rawEvent("/%61dmin/%FF"), "/admin")).toBe(true)
  })

  it("takes one path or several, themselves normalized", () => {
    expect(isProtectedPath(rawEvent("/reports/1"), ["/admin", "/reports"])).toBe(true)
    expect(isProtectedPath(rawEvent("/reports/1"), "/Reports/")).toBe(true)
    expect(isProtectedPath(rawEvent("/reports/1"), "/admin")).toBe(false)
    expect(isProtectedPath(rawEvent("/anything"), "/")).toBe(true)
  })

  it("refuses a path that is not one", () => {
    expect(() => isProtectedPath(rawEvent("/admin"), "admin")).toThrow(TypeError)
    expect(() => isProtectedPath(rawEvent("/admin"), "//admin")).toThrow(TypeError)
    expect(() => isProtectedPath(rawEvent("/admin"), "/admin?tab=1")).toThrow(TypeError)
  })
})

describe("isProtectedPath: the route SvelteKit picked", () => {
  it.each([
    ["/admin", "/admin"],
    ["/admin/[id]", "/admin"],
    ["/(app)/admin/settings", "/admin"],
    ["/(app)/(inner)/admin", "/admin"],
    ["/[[lang]]/admin", "/admin"],
    ["/admin/[...rest]", "/admin"],
    ["/[x+61]dmin", "/admin"],
    ["/[u+0061]dmin/settings", "/admin/settings"],
    ["/reports/[id]", "/reports"],
  ])("route %s is under %s, whatever the URL says", (routeId, prefix) => {
    // A URL that says nothing of it: a `reroute` hook mapped it there.
    expect(isProtectedPath(rawEvent("/verwaltung", routeId), prefix)).toBe(true)
  })

  it.each([
    ["/[slug]", "/admin"],
    ["/administrator", "/admin"],
    ["/(admin)/dashboard", "/admin"],
    ["/reports", "/reports/1"],
  ])("route %s is not under %s", (routeId, prefix) => {
    expect(isProtectedPath(rawEvent("/somewhere", routeId), prefix)).toBe(false)
  })

  it("either view is enough: a catch-all route serving /ADMIN is covered by the path", () => {
    expect(isProtectedPath(rawEvent("/ADMIN", "/[slug]"), "/admin")).toBe(true)
  })
})

describe("isProtectedPath below paths.base", () => {
  it("compares paths below paths.base, route ids as they are", () => {
    setBase("/app")
    expect(isProtectedPath(createEvent("/app/admin"), "/admin")).toBe(true)
    expect(isProtectedPath(createEvent("/APP/%61dmin/x"), "/admin")).toBe(true)
    expect(isProtectedPath(createEvent("/app/public"), "/admin")).toBe(false)
    expect(isProtectedPath(createEvent("/app/app/admin"), "/admin")).toBe(false)
    expect(isProtectedPath(rawEvent("/app/anything", "/admin"), "/admin")).toBe(true)
  })

  it("covers a path outside paths.base too (SvelteKit answers 404 there; a reroute might not)", () => {
    setBase("/app")
    expect(isProtectedPath(createEvent("/admin"), "/admin")).toBe(true)
  })
})

describe("protect", () => {
  it("sends an anonymous visitor to the sign-in page with the path and query to come back to", async () => {
    const { event } = eventFor("/admin/settings?tab=keys&x=%2F", "/admin/settings")
    const { thrown, resolve } = await guarded(protect(["/admin"]), event)
    expect(thrown).toMatchObject({ status: 303 })
    const location = thrown!.location
    expect(location).toBe(
      `/auth/signin?${new URLSearchParams({ callbackUrl: "/admin/settings?tab=keys&x=%2F" })}`,
    )
    expect(resolve).not.toHaveBeenCalled()
  })

  it("keeps the spelling of the requested path, with one leading slash", async () => {
    for (const [path, callbackUrl] of [
      ["/%61dmin", "/%61dmin"],
      [`${ORIGIN}//admin`, "/admin"],
      [`${ORIGIN}///evil.example/admin`, "/evil.example/admin"],
    ]) {
      const { event } = eventFor(path!)
      event.url = new URL(path!, ORIGIN)
      const { thrown } = await guarded(protect(["/admin", "/evil.example"]), event)
      const location = new URL(thrown!.location!, ORIGIN)
      expect(location.searchParams.get("callbackUrl")).toBe(callbackUrl)
    }
  })

  it("sends them to signIn, under paths.base, keeping its query", async () => {
    setBase("/app")
    const { event } = eventFor("/app/admin", "/admin")
    const { thrown } = await guarded(protect(["/admin"]), event)
    expect(thrown).toMatchObject({
      status: 303,
      location: "/app/auth/signin?callbackUrl=%2Fapp%2Fadmin",
    })

    const custom = await guarded(protect(["/admin"], { signIn: "/login?mode=staff" }), event)
    expect(custom.thrown).toMatchObject({
      location: "/app/login?mode=staff&callbackUrl=%2Fapp%2Fadmin",
    })
  })

  it("lets a signed-in user through", async () => {
    const { event, auth } = eventFor("/admin", "/admin", ALICE)
    const { response, resolve } = await guarded(protect(["/admin"]), event)
    expect(await response!.text()).toBe("page")
    expect(resolve).toHaveBeenCalledOnce()
    expect(auth).toHaveBeenCalledOnce()
  })

  it.each(["/admin/x%zz", "/admin/settings%", "/admin/%E0%A4%A", "/admin%2F%C0%AF"])(
    "lets SvelteKit refuse %s, a path it cannot decode, instead of redirecting",
    async (path) => {
      // SvelteKit answers such a path 400 itself; a redirect thrown for it would escape
      // SvelteKit as an unhandled rejection and end the server process.
      const { event, auth } = eventFor(path)
      const { response, resolve, thrown } = await guarded(protect(["/admin"]), event)
      expect(thrown).toBeUndefined()
      expect(resolve).toHaveBeenCalledOnce()
      expect(response?.status).toBe(200)
      expect(auth).not.toHaveBeenCalled()
    },
  )

  it("does not read the session for requests it does not cover", async () => {
    const { event, auth } = eventFor("/public", "/[slug]")
    const resolve = createResolve()
    const result = protect(["/admin"])({ event, resolve })
    // No promise of its own: the request goes on as if the guard were not there.
    expect(result).toBe(resolve.mock.results[0]!.value)
    expect(auth).not.toHaveBeenCalled()
  })

  it("answers 403 to a signed-in user that allow refuses, and passes the session and event", async () => {
    const allow = vi.fn<NonNullable<ProtectRule["allow"]>>(async () => false)
    const handle = protect([{ path: "/admin", allow }])
    const { event } = eventFor("/admin", "/admin", ALICE)
    const { thrown, resolve } = await guarded(handle, event)
    expect(thrown).toMatchObject({ status: 403 })
    expect(resolve).not.toHaveBeenCalled()
    expect(allow).toHaveBeenCalledWith(ALICE, event)
  })

  it("sends an anonymous visitor to sign in rather than answering 403", async () => {
    const allow = vi.fn(() => false)
    const { event } = eventFor("/admin", "/admin")
    const { thrown } = await guarded(protect([{ path: "/admin", allow }]), event)
    expect(thrown).toMatchObject({ status: 303 })
    expect(allow).not.toHaveBeenCalled()
  })

  it("checks every rule that covers the request", async () => {
    const handle = protect([
      "/admin",
      { path: "/admin/billing", allow: (session) => session.user?.email === "bob@example.com" },
      { path: "/reports", allow: () => true },
    ])
    expect((await guarded(handle, eventFor("/admin", null, ALICE).event)).response).toBeDefined()
    expect(
      (await guarded(handle, eventFor("/reports/1", null, ALICE).event)).response,
    ).toBeDefined()
    const billing = await guarded(handle, eventFor("/Admin/Billing/x", null, ALICE).event)
    expect(billing.thrown).toMatchObject({ status: 403 })
  })

  it("keeps the sign-in page itself open when it lies under a protected path", async () => {
    const handle = protect(["/"], { signIn: "/signin" })
    const page = await guarded(handle, eventFor("/signin?callbackUrl=%2Fx", "/signin").event)
    expect(page.response).toBeDefined()
    const other = await guarded(handle, eventFor("/x", "/x").event)
    expect(other.thrown).toMatchObject({ status: 303, location: "/signin?callbackUrl=%2Fx" })
    // Only when the route agrees: /signin rerouted to another page is that page.
    const rerouted = await guarded(handle, eventFor("/signin", "/admin").event)
    expect(rerouted.thrown).toMatchObject({ status: 303 })
    const below = await guarded(handle, eventFor("/signin/x", "/signin/x").event)
    expect(below.thrown).toMatchObject({ status: 303 })
  })

  it("refuses paths and sign-in pages that are not paths", () => {
    expect(() => protect(["admin"])).toThrow(TypeError)
    expect(() => protect([{ path: "/admin?x" }])).toThrow(TypeError)
    expect(() => protect(["/admin"], { signIn: "https://evil.example/signin" })).toThrow(TypeError)
    expect(() => protect(["/admin"], { signIn: "//evil.example/signin" })).toThrow(TypeError)
  })

  it("says where it goes when Latch's handle did not run before it", async () => {
    const event = createEvent("/admin")
    const { thrown } = await guarded(protect(["/admin"]), event)
    expect(String(thrown)).toMatch(/after Latch's handle/)
  })

  it("neither redirects nor reads the session while prerendering, and warns about covered pages", async () => {
    setBuilding(true)
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const handle = protect(["/admin"])
    const { event, auth } = eventFor("/admin/handbook", "/admin/handbook")
    expect(await (await handle({ event, resolve: createResolve() })).text()).toBe("page")
    await handle({ event, resolve: createResolve() })
    expect(auth).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledOnce()
    expect(String(warn.mock.calls[0]![0])).toContain(
      "protected-page-prerendered: /admin/handbook is served as a static file",
    )

    // A page that is not prerendered answers 204 to the prerenderer: nothing to warn about.
    const skipped = eventFor("/admin/other", "/admin/other").event
    await handle({ event: skipped, resolve: async () => new Response(null, { status: 204 }) })
    await handle({ event: eventFor("/about", "/about").event, resolve: createResolve() })
    expect(warn).toHaveBeenCalledOnce()
  })
})

describe("protect after SvelteKitAuth's handle", () => {
  const { handle: auth } = SvelteKitAuth(testConfig())
  const guard = protect(["/admin"])
  const handle: ConstructorParameters<typeof Browser>[0] = ({ event, resolve }) =>
    auth({ event, resolve: (event) => guard({ event, resolve }) })

  it("redirects before sign-in and lets the same browser through after", async () => {
    const browser = new Browser(handle)
    const before = await browser.fetch("/%61dmin").catch((thrown: unknown) => thrown)
    expect(before).toMatchObject({ status: 303, location: "/auth/signin?callbackUrl=%2F%2561dmin" })
    await browser.signIn()
    const after = await browser.fetch("/%61dmin")
    expect(after.resolve).toHaveBeenCalledOnce()
  })
})
