// Signing in through Latch as a browser would, for the benchmarks that need a session cookie.
import { Auth } from "@latch/core"
import { BenchError } from "./common.mjs"

export const ORIGIN = "http://localhost:3000"
export const COOKIE_NAME = "authjs.session-token" // no `__Secure-` prefix: the origin is plain http

/** A browser's cookie jar for one origin, fed by the responses of `Auth(request, config)`. */
function browser(config) {
  const jar = new Map()
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")

  function store(response) {
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";", 1)[0]
      const at = pair.indexOf("=")
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      if (value === "" || /;\s*max-age=0(;|$)/i.test(header)) jar.delete(name)
      else jar.set(name, value)
    }
  }

  async function send(path, init = {}) {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", cookieHeader())
    const response = await Auth(new Request(new URL(path, ORIGIN), { ...init, headers }), config)
    store(response)
    return response
  }

  return { jar, send }
}

/**
 * Signs in with the credentials provider of `config` (`GET /auth/csrf`, then a form-encoded
 * `POST /auth/callback/credentials`, cookies carried over); returns the session cookie's value.
 */
export async function signIn(config) {
  const { jar, send } = browser(config)
  const { csrfToken } = await (await send("/auth/csrf")).json()
  const response = await send("/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username: "alice", password: "x" }).toString(),
  })
  const token = jar.get(COOKIE_NAME)
  if (!token) {
    const where = response.headers.get("location")
    throw new BenchError(
      `sign-in (status ${response.status}${where ? `, to ${where}` : ""}) set no ${COOKIE_NAME} cookie`,
    )
  }
  return token
}
