// A guard in front of the demo's remote forms (src/lib/account.remote.ts). SvelteKit reads a
// remote form's body before any of the app's code runs, and answers one it cannot turn into
// fields — a field sent twice, a field name that is no property path, a body that is no form, a
// form key after the name that is no JSON — with a 500 (an HTTP 200 whose JSON says
// `status: 500` for the JavaScript client). Browsers never send such requests; scripts do. This answers them with a 400 first, by the rules the demo's
// own forms follow. (The demo has remote forms and queries only: an app with `command`s would
// let their JSON bodies through as well.)
import type { Handle } from "@sveltejs/kit"

/** SvelteKit's own encoding of an enhanced remote form's submission. */
const SVELTEKIT_FORM = "application/x-sveltekit-formdata"
/** A field name the demo's forms use: a property path such as `username` or `user.emails[0]`. */
const FIELD_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d{1,6}\])*$/
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"])

const refuse = (message: string) =>
  new Response(JSON.stringify({ error: "InvalidRequest", message }), {
    status: 400,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  })

const ENDPOINT = "/_app/remote/"

/**
 * The id of the remote form a request submits (`<hash>/<name>`, then a key for forms made with
 * `.for(key)`): to its endpoint, or to a page without JavaScript (`?/remote=<id>`); `undefined`
 * for any other request. The request's own URL: for a remote call SvelteKit sets `event.url` to
 * the page's.
 */
function remoteFormId(request: Request): string | undefined {
  if (request.method !== "POST") return undefined
  const url = new URL(request.url)
  const at = url.pathname.indexOf(ENDPOINT)
  if (at >= 0) return url.pathname.slice(at + ENDPOINT.length)
  return url.searchParams.get("/remote") ?? undefined
}

/** Why SvelteKit could not read these fields, or `undefined` when it can. */
function fieldProblem(form: FormData): string | undefined {
  const seen = new Set<string>()
  for (const key of form.keys()) {
    const isList = key.endsWith("[]")
    // SvelteKit 3 names a field `name/<form id>`; `n:` and `b:` mark numbers and booleans.
    let name = key.replace(/\/[^/]*\/[^/]*$/, "").replace(/^[nb]:/, "")
    if (isList) name = name.slice(0, -2)
    if (!FIELD_PATH.test(name)) return "A field name is not a property path."
    if (name.split(/[.[\]]/).some((part) => FORBIDDEN_KEYS.has(part)))
      return "A field name is not allowed."
    if (!isList && seen.has(key)) return "A field was sent twice."
    seen.add(key)
  }
  return undefined
}

export const guardRemoteForms: Handle = async ({ event, resolve }) => {
  const id = remoteFormId(event.request)
  if (id === undefined) return resolve(event)
  // SvelteKit parses a key after the name as JSON; the demo's forms are not keyed.
  if (id.split("/").length > 2) return refuse("This form takes no key.")
  const type = (event.request.headers.get("content-type") ?? "").split(";")[0]!.trim()
  if (type === SVELTEKIT_FORM) return resolve(event)
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data")
    return refuse("Send this form as a form.")
  let form: FormData
  try {
    form = await event.request.clone().formData()
  } catch {
    return refuse("The form could not be read.")
  }
  const problem = fieldProblem(form)
  return problem ? refuse(problem) : resolve(event)
}
