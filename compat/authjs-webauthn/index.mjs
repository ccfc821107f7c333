// Drives Auth.js itself (@auth/core 0.41.3 with @simplewebauthn/server 9, the major it supports)
// through its passkey flows, as a browser would: so that tests hold rows written the way an
// Auth.js app wrote them, and check that Auth.js still reads what Latch writes.
import { Auth } from "@auth/core"
import Passkey from "@auth/core/providers/passkey"

export const ORIGIN = "http://localhost:3000"

/** An Auth.js configuration with the passkey provider on `adapter`. */
export function passkeyConfig(adapter, secret) {
  return {
    secret,
    trustHost: true,
    basePath: "/auth",
    adapter,
    providers: [Passkey],
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

/** A browser's cookie jar in front of Auth.js's `Auth()`. */
class Browser {
  cookies = new Map()
  constructor(config) {
    this.config = config
  }
  async fetch(path, form) {
    const headers = new Headers()
    if (this.cookies.size)
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "))
    let body
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(form).toString()
    }
    const request = new Request(new URL(path, ORIGIN), {
      method: form ? "POST" : "GET",
      headers,
      body,
    })
    const response = await Auth(request, this.config)
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const index = pair.indexOf("=")
      const name = pair.slice(0, index)
      const value = pair.slice(index + 1)
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  async csrfToken() {
    const response = await this.fetch("/auth/csrf")
    return (await response.json()).csrfToken
  }
}

async function ceremony(browser, query, answer, action) {
  const options = await browser.fetch(
    `/auth/webauthn-options/passkey?${new URLSearchParams(query)}`,
  )
  if (options.status !== 200) throw new Error(`Auth.js webauthn-options: ${options.status}`)
  const body = await options.json()
  const data = await answer(body.options)
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/callback/passkey", {
    csrfToken,
    action,
    data: JSON.stringify(data),
    callbackUrl: "/dashboard",
  })
  return { response, options: body, cookies: browser.cookies }
}

/**
 * Registers a passkey for a new user with `email` through Auth.js: `create(options)` answers
 * the creation options as `navigator.credentials.create()` would.
 */
export async function registerWithAuthjs({ adapter, secret, email, create }) {
  const browser = new Browser(passkeyConfig(adapter, secret))
  return ceremony(browser, { action: "register", email }, create, "register")
}

/** Signs in through Auth.js: `get(options)` answers as `navigator.credentials.get()` would. */
export async function signInWithAuthjs({ adapter, secret, get }) {
  const browser = new Browser(passkeyConfig(adapter, secret))
  return ceremony(browser, { action: "authenticate" }, get, "authenticate")
}
