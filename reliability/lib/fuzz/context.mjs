// The live values a generated request's placeholders stand for, read from the running demo: a
// CSRF token with its cookie, signed-in sessions, the remote functions' id, a session cookie
// sealed with another app's secret.
import { encode } from "../../../packages/core/dist/jwt.js"
import { ALICE, BOB, signIn } from "../demo.mjs"

/** Reads what the placeholders need from a demo at `origin`. */
export async function liveContext(origin) {
  const csrfResponse = await fetch(`${origin}/auth/csrf`)
  const { csrfToken } = await csrfResponse.json()
  const csrfCookie = csrfResponse.headers
    .getSetCookie()
    .map((header) => header.split(";", 1)[0])
    .find((pair) => pair.startsWith("authjs.csrf-token="))
  // A few sessions, so that a generated sign-out or revocation does not leave the rest of the
  // run without one. Each request takes the next.
  const sessions = []
  for (const user of [ALICE, BOB, ALICE, BOB]) sessions.push(await signIn(origin, user))
  const page = await (await fetch(`${origin}/remote`)).text()
  const remote = /remote=([^"&/]+)\/signInRemote/.exec(page)?.[1]
  if (!remote) throw new Error("the /remote page names no remote sign-in form")
  const foreignJwe = await encode({
    token: { sub: "1", name: "Alice Liddell", email: "alice@example.com" },
    secret: "another-app-secret-another-app-secret-0123456789",
    salt: "authjs.session-token",
  })
  return {
    origin,
    host: new URL(origin).host,
    csrf: csrfToken,
    csrfCookie,
    sessions,
    remote,
    foreignJwe,
  }
}

/**
 * Whether the request's cookies hold the session's whole value as a reader may take it: under
 * the cookie's own name (among others of that name), or as chunks `.0`, `.1`, … that join into
 * it. A value cut, flipped, or with a chunk missing or out of order is no session.
 */
function carriesWholeSession(headers, value) {
  for (const [name, header] of headers) {
    if (name !== "cookie") continue
    // Every value of each name: with a name twice, a reader may take either.
    const jar = new Map()
    for (const pair of header.split(";")) {
      const at = pair.indexOf("=")
      if (at <= 0) continue
      const key = pair.slice(0, at).trim()
      jar.set(key, [...(jar.get(key) ?? []), pair.slice(at + 1).trim()])
    }
    if (jar.get("authjs.session-token")?.includes(value)) return true
    let joined = ""
    for (let i = 0; jar.has(`authjs.session-token.${i}`); i++)
      joined += jar.get(`authjs.session-token.${i}`)[0]
    if (joined && joined === value) return true
  }
  return false
}

const TRANSFORMS = {
  flip: (value, at) => {
    const index = Math.min(Number(at), value.length - 1)
    if (index < 0) return value
    const char = value[index] === "A" ? "B" : "A"
    return value.slice(0, index) + char + value.slice(index + 1)
  },
  cut: (value, at) => value.slice(0, Number(at)),
  drop: (value, at) => value.slice(Number(at)),
  append: (value, text) => value + text,
  upper: (value) => value.toUpperCase(),
}

/**
 * The request with its placeholders filled in from `live`, with session number `n` (mod the
 * number of sessions). Placeholders percent-encoded inside a query or body are filled in
 * percent-encoded.
 */
export function materialize(request, live, n = 0) {
  const session = live.sessions[n % live.sessions.length]
  const values = {
    origin: live.origin,
    host: live.host,
    csrf: live.csrf,
    csrfCookie: live.csrfCookie,
    session,
    sessionValue: session.split("; ")[0].split("=").slice(1).join("="),
    foreignJwe: live.foreignJwe,
    remote: live.remote,
  }
  const fill = (text) =>
    text
      .replace(/\{\{(\w+)(?:\|(\w+):([^}]*))?\}\}/g, (_, name, transform, arg) =>
        transform ? TRANSFORMS[transform](values[name], arg) : values[name],
      )
      .replace(/%7B%7B(\w+)%7D%7D/g, (whole, name) =>
        name in values ? encodeURIComponent(values[name]) : whole,
      )
  const body =
    request.body?.text !== undefined
      ? { ...request.body, text: fill(request.body.text) }
      : request.body
  const headers = request.headers.map(([name, value]) => [name, fill(value)])
  return {
    ...request,
    path: fill(request.path),
    headers,
    body,
    // The session cookie sent whole, as issued — the only case where the server may renew it.
    intactSession: carriesWholeSession(headers, values.sessionValue) ? session : undefined,
  }
}
