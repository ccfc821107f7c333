/**
 * `guardRemoteFunctions`: a `handle` that answers, with a 4xx, the remote function requests
 * SvelteKit itself would answer with a 500 before any of the app's code runs — a form body it
 * cannot turn into fields (a field sent twice, a field name that is no property path or names
 * `__proto__`, a body that is no form), a form key after the function's name that is no JSON, a
 * command body that is no JSON. SvelteKit's own client never sends such requests; scripts do, and
 * a 500 is a page an attacker can make the server log at will. Put it first in `sequence`.
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { Handle } from "./types.js"

/** SvelteKit's own encoding of an enhanced remote form's submission. */
const SVELTEKIT_FORM = "application/x-sveltekit-formdata"
const ENDPOINT = "/_app/remote/"
/** A field name as SvelteKit reads it: a property path such as `email` or `user.tags[0]`. */
const FIELD_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d{1,6}\])*$/
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"])

function refuse(status: 400 | 415, message: string): Response {
  return new Response(JSON.stringify({ error: "InvalidRequest", message }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  })
}

/**
 * The remote function a POST calls, as `{ id, key, fromPage }`: to its endpoint
 * (`/_app/remote/<hash>/<name>[/<key>]`) or, for a form without JavaScript, to a page
 * (`?/remote=<hash>/<name>[/<key>]`). The request's own URL: for a remote call SvelteKit has set
 * `event.url` to the page's.
 */
function remoteCall(request: Request) {
  if (request.method !== "POST") return undefined
  const url = new URL(request.url)
  const at = url.pathname.indexOf(ENDPOINT)
  if (at >= 0) {
    const [hash, name, key] = url.pathname.slice(at + ENDPOINT.length).split("/")
    return { id: `${hash}/${name}`, key, fromPage: false }
  }
  const id = url.searchParams.get("/remote")
  if (id === null) return undefined
  const [hash, name, ...rest] = id.split("/")
  return { id: `${hash}/${name}`, key: rest.join("/") || undefined, fromPage: true }
}

/** Whether SvelteKit can parse a form's key (a keyed form, `form.for(key)`). */
function parsableKey(key: string, fromPage: boolean): boolean {
  try {
    JSON.parse(fromPage ? key : decodeURIComponent(key))
    return true
  } catch {
    return false
  }
}

/** Why SvelteKit could not read these fields, or `undefined` when it can. */
function fieldProblem(form: FormData): string | undefined {
  const seen = new Set<string>()
  for (const key of form.keys()) {
    const isList = key.endsWith("[]")
    // SvelteKit 3 names a field `name/<form id>`; `n:`, `b:` and `i:` mark its type.
    let name = key.replace(/\/[^/]*\/[^/]*$/, "").replace(/^[nbi]:/, "")
    if (isList) name = name.slice(0, -2)
    if (!FIELD_PATH.test(name)) return "A field name is not a property path."
    if (name.split(/[.[\]]/).some((part) => FORBIDDEN_KEYS.has(part)))
      return "A field name is not allowed."
    if (!isList && seen.has(key)) return "A field was sent twice."
    seen.add(key)
  }
  return undefined
}

async function problemOf(event: RequestEvent): Promise<Response | undefined> {
  const call = remoteCall(event.request)
  if (!call) return undefined
  if (call.key !== undefined && !parsableKey(call.key, call.fromPage))
    return refuse(400, "The form's key is not valid.")
  const type = (event.request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()
  if (type === SVELTEKIT_FORM) return undefined
  if (type === "application/json") {
    // A command: `{ "payload": "…" }`.
    try {
      const body = (await event.request.clone().json()) as { payload?: unknown } | null
      if (typeof body?.payload === "string") return undefined
    } catch {
      // Not JSON.
    }
    return refuse(400, "Send a command's argument as SvelteKit's client does.")
  }
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data")
    return refuse(415, "Send this form as a form.")
  let form: FormData
  try {
    form = await event.request.clone().formData()
  } catch {
    return refuse(400, "The form could not be read.")
  }
  const problem = fieldProblem(form)
  return problem ? refuse(400, problem) : undefined
}

/**
 * A `handle` that refuses, with a 400 or 415, the remote function requests SvelteKit would answer
 * with a 500 (see the module's comment). Other requests go on untouched.
 *
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { sequence } from "@sveltejs/kit/hooks"
 * import { guardRemoteFunctions } from "@latch/sveltekit/remote"
 * import { handle as auth } from "./auth"
 * export const handle = sequence(guardRemoteFunctions, auth)
 * ```
 */
export const guardRemoteFunctions: Handle = async ({ event, resolve }) =>
  (await problemOf(event)) ?? resolve(event)
