/**
 * Route protection that matches a request the way SvelteKit routes it, not the way it is spelled.
 *
 * A test on `event.url.pathname` alone is easy to fool: the URL keeps the percent-encoding,
 * while SvelteKit routes on the decoded path, so `/%61dmin` renders `/admin` and a
 * `pathname.startsWith("/admin")` guard waves it through. Two independent views decide here, and
 * a request is protected when either one matches (defence in depth):
 *
 * 1. `event.route.id`: the route SvelteKit picked before `handle` ran, after decoding and after
 *    `reroute`, with `(group)` and `[[optional]]` segments left out. No spelling changes it, but
 *    it is `null` for a request no route serves (such requests still reach the hooks), and a
 *    catch-all route (`/[slug]`) that serves `/ADMIN` or `/admin%2Fsettings` names itself.
 * 2. The request's path, normalized as a permissive router would read it: each segment decoded
 *    once, split again on a decoded `/`, empty segments dropped, `.` and `..` resolved, compared
 *    without regard to case, below `paths.base`. It catches what the route id misses, and an
 *    adapter, proxy or platform in front that matches paths more loosely than SvelteKit; it
 *    misses a `reroute` onto a protected route, which the first view catches.
 *
 * Either view alone has a gap the other covers; both err on the side of protecting.
 */
import { building } from "$app/environment"
import type { Session } from "@latch/core/types"
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { appBase } from "./paths.js"
import type { Handle } from "./types.js"

/** A protected path with a check for signed-in users: who may pass. */
export interface ProtectRule {
  /** A path under `paths.base`: `"/admin"` covers `/admin` and everything below it. */
  path: string
  /**
   * Whether this signed-in user may open the path; `false` answers 403. Throw SvelteKit's
   * `redirect()` or `error()` in it for another answer.
   */
  allow?: (session: Session, event: RequestEvent) => boolean | Promise<boolean>
}

/** Options of {@link protect}. */
export interface ProtectOptions {
  /**
   * The sign-in page anonymous visitors are sent to, a path under `paths.base` (a query is
   * kept). Default: `/auth/signin`, the built-in page; set it with a custom `basePath` or a
   * page of your own.
   */
  signIn?: string
}

/** The parts of a request event the matching reads. */
export type RouteOfEvent = Pick<RequestEvent, "url" | "route">

interface CompiledRule {
  segments: string[]
  allow?: ProtectRule["allow"]
}

/** Decodes the percent-escapes of a segment once; a malformed run keeps its non-ASCII bytes. */
function decodeOnce(segment: string): string {
  if (!segment.includes("%")) return segment
  return segment.replace(/(?:%[\da-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run.replace(/%[0-7][\da-f]/gi, (escape) => decodeURIComponent(escape))
    }
  })
}

/** Whether SvelteKit can decode a request's path (it splits on `%25`, then `decodeURI`s). */
function decodableBySvelteKit(pathname: string): boolean {
  try {
    for (const part of pathname.split("%25")) decodeURI(part)
    return true
  } catch {
    return false
  }
}

/** A path as lower-case segments: decoded once, split on decoded `/`, dot segments resolved. */
function segmentsOf(pathname: string): string[] {
  const segments: string[] = []
  for (const raw of pathname.split("/")) {
    for (const part of decodeOnce(raw).split("/")) {
      if (part === "" || part === ".") continue
      if (part === "..") segments.pop()
      else segments.push(part.toLowerCase())
    }
  }
  return segments
}

const routeSegmentsCache = new Map<string, string[]>()

/**
 * A route id as lower-case segments, without `(group)` and `[[optional]]` segments (leaving one
 * out can only widen what a prefix covers) and with `[x+hh]` / `[u+hhhh]` escapes decoded.
 * Cached: route ids come from the app's routes, never from the request.
 */
function routeSegmentsOf(id: string): string[] {
  let segments = routeSegmentsCache.get(id)
  if (segments) return segments
  segments = []
  for (const segment of id.split("/")) {
    if (/^\(.*\)$/.test(segment) || /^\[\[.*\]\]$/.test(segment)) continue
    const literal = segment
      .replace(/\[x\+([\da-f]{2})\]/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\[u\+([\da-f]{4,}(?:-[\da-f]{4,})*)\]/gi, (_, hexes: string) =>
        String.fromCodePoint(...hexes.split("-").map((hex) => parseInt(hex, 16))),
      )
    for (const part of literal.split("/")) if (part) segments.push(part.toLowerCase())
  }
  routeSegmentsCache.set(id, segments)
  return segments
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((segment, i) => segments[i] === segment)
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b)
}

/** The request's path segments below `paths.base` (all of them when it is not below it). */
function pathSegmentsOf(url: URL): string[] {
  const path = segmentsOf(url.pathname)
  const base = segmentsOf(appBase(url))
  return startsWith(path, base) ? path.slice(base.length) : path
}

/** A configured path, checked: an absolute path, without query or fragment. */
function checkedPath(path: string, what: string): string {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) {
    throw new TypeError(`${what}: ${JSON.stringify(path)} is not a path starting with one "/"`)
  }
  return path
}

function prefixSegments(path: string): string[] {
  if (/[?#]/.test(path)) throw new TypeError(`protect: ${JSON.stringify(path)} has a query`)
  return segmentsOf(checkedPath(path, "protect"))
}

/** The two views of a request, computed once per request for all rules. */
function viewsOf(event: RouteOfEvent): { route: string[] | null; path: string[] } {
  const id = event.route?.id
  return { route: id ? routeSegmentsOf(id) : null, path: pathSegmentsOf(event.url) }
}

function covers(views: ReturnType<typeof viewsOf>, prefix: readonly string[]): boolean {
  return (views.route !== null && startsWith(views.route, prefix)) || startsWith(views.path, prefix)
}

/**
 * Whether a request is for one of the given paths (or below one), as SvelteKit routes it: by
 * `event.route.id` and by the decoded, normalized path, either matching (see the module's
 * comment). Paths are under `paths.base` and compared without regard to case. For apps that
 * write their own hook; {@link protect} uses it.
 *
 * @param event the request event (its `url` and `route`)
 * @param paths a path such as `"/admin"`, or several; each covers itself and what is below it
 * @returns `true` for `/admin`, `/admin/`, `/Admin/settings`, `/%61dmin`, `/x/../admin`,
 *   `/admin%2Fsettings`, and for any path SvelteKit routes to a route under `/admin`
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { isProtectedPath } from "@latch/sveltekit"
 * import { error, type Handle } from "@sveltejs/kit"
 *
 * const staffOnly: Handle = async ({ event, resolve }) => {
 *   if (isProtectedPath(event, ["/staff", "/reports"])) {
 *     const session = await event.locals.auth()
 *     if (!session?.user?.email?.endsWith("@example.com")) error(404, "Not found")
 *   }
 *   return resolve(event)
 * }
 * ```
 */
export function isProtectedPath(event: RouteOfEvent, paths: string | readonly string[]): boolean {
  const prefixes = (typeof paths === "string" ? [paths] : paths).map(prefixSegments)
  const views = viewsOf(event)
  return prefixes.some((prefix) => covers(views, prefix))
}

const warnedPrerendered = new Set<string>()

/**
 * A `handle` that keeps anonymous visitors out of the given paths: they get a 303 to the sign-in
 * page with `callbackUrl` set to the page they asked for (path and query), so they come back
 * after signing in. A signed-in user a rule's `allow` refuses gets a 403. Put it after Latch's
 * `handle` in `sequence(...)`: it reads `event.locals.auth()`, and only for requests it covers.
 *
 * It covers every request to those paths: pages, their data requests on client-side
 * navigation, form actions and `+server.ts` endpoints — unlike a check in a layout's load.
 * Remote functions are not tied to a path: check the session inside them. Prerendered pages are
 * static files that no hook sees; it warns during the build when a covered page is prerendered.
 *
 * @param rules paths (`"/admin"` covers `/admin` and below, under `paths.base`, matched by route
 *   and by decoded path, see {@link isProtectedPath}), or `{ path, allow }` rules; every rule
 *   that covers a request must pass
 * @param options `signIn`: where anonymous visitors go (default `/auth/signin` under
 *   `paths.base`)
 * @returns a SvelteKit `Handle`
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { protect } from "@latch/sveltekit"
 * import { sequence } from "@sveltejs/kit/hooks"
 * import { handle as auth } from "./auth"
 *
 * export const handle = sequence(
 *   auth,
 *   protect(
 *     ["/account", { path: "/admin", allow: (session) => session.user?.role === "admin" }],
 *     { signIn: "/signin" },
 *   ),
 * )
 * ```
 */
export function protect(
  rules: readonly (string | ProtectRule)[],
  options: ProtectOptions = {},
): Handle {
  const compiled: CompiledRule[] = rules.map((rule) =>
    typeof rule === "string"
      ? { segments: prefixSegments(rule) }
      : { segments: prefixSegments(rule.path), allow: rule.allow },
  )
  const signIn = checkedPath(options.signIn ?? "/auth/signin", "protect's signIn")
  const signInPage = segmentsOf(signIn.replace(/[?#].*$/, ""))

  const matching = (event: RequestEvent) => {
    const views = viewsOf(event)
    return { views, rules: compiled.filter((rule) => covers(views, rule.segments)) }
  }

  /** Checks a covered request; throws SvelteKit's redirect or error to refuse it. */
  const check = async (event: RequestEvent, rules: CompiledRule[]): Promise<void> => {
    if (typeof event.locals.auth !== "function") {
      throw new Error("protect(): put it after Latch's handle, e.g. sequence(handle, protect(…))")
    }
    const session = await event.locals.auth()
    if (!session?.user) {
      // Leading slashes collapsed: `//host` would be another origin once used as a URL.
      const callbackUrl = event.url.pathname.replace(/^\/+/, "/") + event.url.search
      const target = new URL(appBase(event.url) + signIn, event.url)
      target.searchParams.set("callbackUrl", callbackUrl)
      redirect(303, target.pathname + target.search)
    }
    for (const rule of rules) {
      if (rule.allow && !(await rule.allow(session, event))) error(403, "Forbidden")
    }
  }

  return ({ event, resolve }) => {
    if (building) {
      // No users while prerendering, and no redirect: it would be saved as the page.
      return Promise.resolve(resolve(event)).then((response) => {
        const { pathname } = event.url
        if (response.status === 200 && matching(event).rules.length > 0) {
          if (!warnedPrerendered.has(pathname)) {
            warnedPrerendered.add(pathname)
            console.warn(
              `[latch][warn] protected-page-prerendered: ${pathname} is served as a static file, ` +
                "which no hook sees: turn prerendering off for it (export const prerender = false).",
            )
          }
        }
        return response
      })
    }
    // A path SvelteKit cannot decode (`/admin/x%zz`) gets its own 400 "Malformed URI" and
    // reaches no route. A redirect or error thrown by a hook for such a request escapes
    // SvelteKit 2's response handling as an unhandled rejection, which ends the Node process:
    // let SvelteKit refuse it instead.
    if (!decodableBySvelteKit(event.url.pathname)) return resolve(event)
    const { views, rules } = matching(event)
    if (rules.length === 0) return resolve(event)
    // The sign-in page itself stays open (e.g. with protect(["/"])) when both views agree that
    // this is exactly it.
    const onSignInPage =
      sameSegments(views.path, signInPage) &&
      (views.route === null || sameSegments(views.route, signInPage))
    if (onSignInPage) return resolve(event)
    return check(event, rules).then(() => resolve(event))
  }
}
