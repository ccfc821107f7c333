/**
 * Every cookie Latch sets, with its name and attributes, in one table.
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
    sessionToken: { name: `${prefix}latch.session-token`, options },
    callbackUrl: { name: `${prefix}latch.callback-url`, options },
    csrfToken: { name: `${secure ? "__Host-" : ""}latch.csrf-token`, options },
    pkceCodeVerifier: { name: `${prefix}latch.pkce.code_verifier`, options: check },
    state: { name: `${prefix}latch.state`, options: check },
    nonce: { name: `${prefix}latch.nonce`, options: check },
    webauthnChallenge: { name: `${prefix}latch.challenge`, options: check },
    twoFactor: { name: `${prefix}latch.two-factor`, options: check },
    // Short-lived by design: its `maxAge` is set to `accountChanges.freshAge` when it is written.
    proof: { name: `${prefix}latch.proof`, options },
    signUp: { name: `${prefix}latch.sign-up`, options },
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
