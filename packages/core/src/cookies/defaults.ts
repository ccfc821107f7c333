/**
 * Every cookie Latch sets, with its name and attributes, in one table.
 *
 * The cookies Auth.js has too carry Auth.js's names (`authjs.session-token`, …), so that code
 * that names them — an app's own sign-out route, a middleware, a WebSocket server, tests — keeps
 * working after the move, and a session cookie reads the same under both (`session/
 * session-cookies.ts`). Latch's own cookies, which Auth.js does not set, are named `latch.…`.
 *
 * Defaults: `HttpOnly` (no script reads them), `SameSite=Lax` (not sent on cross-site POSTs),
 * `Path=/`. On https they are `Secure` and named with the `__Secure-` prefix, and the CSRF
 * cookie with `__Host-`, which also forbids a `Domain` so that a sibling subdomain cannot plant
 * it (draft-ietf-httpbis-rfc6265bis §4.1.3).
 */
import type { CookieOption, CookiesOptions, CookieSerializeOptions } from "../types.js"

/** Every cookie with its name and options filled. */
export type ResolvedCookies = { [K in keyof CookiesOptions]: CookieOption }

/** Check cookies (state, PKCE, nonce, challenge) live 15 minutes: long enough for a login. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60

/** The built-in cookies for a secure (https) or insecure (http) origin. */
export function defaultCookies(secure: boolean): ResolvedCookies {
  const prefix = secure ? "__Secure-" : ""
  const options: CookieSerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure }
  const check: CookieSerializeOptions = { ...options, maxAge: CHECK_COOKIE_MAX_AGE }
  return {
    sessionToken: { name: `${prefix}authjs.session-token`, options },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options },
    csrfToken: { name: `${secure ? "__Host-" : ""}authjs.csrf-token`, options },
    pkceCodeVerifier: { name: `${prefix}authjs.pkce.code_verifier`, options: check },
    state: { name: `${prefix}authjs.state`, options: check },
    nonce: { name: `${prefix}authjs.nonce`, options: check },
    webauthnChallenge: { name: `${prefix}authjs.challenge`, options: check },
    twoFactor: { name: `${prefix}latch.two-factor`, options: check },
    // Short-lived by design: its `maxAge` is set to `accountChanges.freshAge` when it is written.
    proof: { name: `${prefix}latch.proof`, options },
    signUp: { name: `${prefix}latch.sign-up`, options },
    passkeySignUp: { name: `${prefix}latch.passkey-sign-up`, options },
  }
}

/** The built-in cookies with the user's `cookies` overrides applied, member by member. */
export function resolveCookies(
  secure: boolean,
  overrides: Partial<CookiesOptions> | undefined,
): ResolvedCookies {
  const cookies = defaultCookies(secure)
  if (!overrides) return cookies
  for (const key of Object.keys(cookies) as (keyof ResolvedCookies)[]) {
    const override = overrides[key]
    if (!override) continue
    cookies[key] = {
      name: override.name ?? cookies[key].name,
      options: { ...cookies[key].options, ...override.options },
    }
  }
  return cookies
}
