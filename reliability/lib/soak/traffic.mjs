// The soak's requests, as a browser would send them to the demo. Every request carries its own
// X-Forwarded-For (the demo runs with ADDRESS_HEADER=x-forwarded-for): the sign-in rate limits
// count per client address, and a minute of traffic from one address would be refused by them —
// rightly, and beside the point of this run.
import { setCookies } from "../demo.mjs"

let clients = 0

/** A client address of its own for a request (198.18.0.0/15, the benchmarking range). */
export function nextClientAddress() {
  clients = (clients + 1) % 65_536
  return `198.18.${clients >> 8}.${clients & 255}`
}

/**
 * One request, timed: `{ status, ms, retryAfter, location, body, error }`. A request that got no
 * answer (connection refused, reset, timed out) has `status: 0` and `error`.
 */
export async function send(origin, path, init = {}) {
  const started = performance.now()
  const headers = { "x-forwarded-for": nextClientAddress(), ...init.headers }
  try {
    const response = await fetch(`${origin}${path}`, {
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
      ...init,
      headers,
    })
    const body = await response.text()
    return {
      status: response.status,
      ms: performance.now() - started,
      retryAfter: response.headers.get("retry-after"),
      location: response.headers.get("location"),
      cookies: setCookies(response),
      body,
    }
  } catch (error) {
    return {
      status: 0,
      ms: performance.now() - started,
      error: error?.cause?.code ?? error?.name ?? String(error),
    }
  }
}

const form = (fields) => ({
  "content-type": "application/x-www-form-urlencoded",
  body: new URLSearchParams(fields),
})

/** Signs in with a password; the result has `cookie` (the Cookie header) when it worked. */
export async function signInWithPassword(origin, user) {
  const { body, ...type } = form({ username: user.username, password: user.password })
  const result = await send(origin, "/auth/callback/credentials", {
    method: "POST",
    headers: { origin, ...type },
    body,
  })
  const pairs = (result.cookies ?? []).filter((pair) => !pair.endsWith("="))
  if (pairs.some((pair) => pair.startsWith("authjs.session-token")))
    result.cookie = pairs.join("; ")
  return result
}

/** The session as `/auth/session` answers it, with `user` when the JSON names one. */
export async function readSession(origin, cookie) {
  const result = await send(origin, "/auth/session", { headers: { cookie } })
  if (result.status === 200) {
    try {
      result.user = JSON.parse(result.body)?.user?.name ?? null
    } catch {
      result.user = null
    }
  }
  return result
}

/** A CSRF token and the cookie that goes with it (two requests: both are recorded). */
async function csrf(origin, cookie) {
  const result = await send(origin, "/auth/csrf", { headers: cookie ? { cookie } : {} })
  let token
  try {
    token = JSON.parse(result.body ?? "null")?.csrfToken
  } catch {
    token = undefined
  }
  const pair = (result.cookies ?? []).find((c) => c.startsWith("authjs.csrf-token="))
  return { result, token, cookie: [cookie, pair].filter(Boolean).join("; ") }
}

/** Signs a session out with the sign-out action: `[csrfResult, signOutResult]`. */
export async function signOut(origin, cookie) {
  const got = await csrf(origin, cookie)
  if (!got.token) return [got.result]
  const { body, ...type } = form({ csrfToken: got.token })
  const result = await send(origin, "/auth/signout", {
    method: "POST",
    headers: { origin, cookie: got.cookie, ...type },
    body,
  })
  return [got.result, result]
}

/** Asks for an email sign-in link: `[csrfResult, signInResult]`. */
export async function requestEmail(origin, email) {
  const got = await csrf(origin)
  if (!got.token) return [got.result]
  const { body, ...type } = form({ email, csrfToken: got.token })
  const result = await send(origin, "/auth/signin/nodemailer", {
    method: "POST",
    headers: { origin, cookie: got.cookie, ...type },
    body,
  })
  return [got.result, result]
}
