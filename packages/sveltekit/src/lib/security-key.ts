/**
 * Security keys (or passkeys) as the second factor, in the browser: `useSecurityKey` answers the
 * code step of a sign-in waiting for its second factor, `addSecurityKey` adds a key to the
 * signed-in user's second factors (or sets the first one up, in a sign-in that must). Both use
 * the browser's WebAuthn API directly (no `@simplewebauthn/browser`), so that `<TwoFactorForm>`
 * can offer them in every app.
 *
 * 1. `GET {basePath}/two-factor/security-key[-setup]` → `{ action, options }` (and the challenge
 *    cookie, bound to this sign-in or this user);
 * 2. `navigator.credentials.get` or `.create` asks the key;
 * 3. `POST` the same path with `data` (the credential's JSON), answered `{ url }` — and
 *    `recoveryCodes` when the key is the user's first second factor.
 */
import { actionsBase } from "./client-base.js"
import { creationOptions, requestOptions, toJSON } from "./components/passkey.js"
import { go, post } from "./sign-in-request.js"

type Json = Record<string, any>

/** What a security key's ceremony came to. */
export interface SecurityKeyResult {
  ok: boolean
  /** The HTTP status of the refusal or answer; 0 when the browser refused (no request made). */
  status: number
  /**
   * Why not: the browser's reason (`NotAllowedError`: cancelled, or no such key), the server's
   * refusal of the options (`ReauthenticationRequired`, `TwoFactorError`…), or the answer's
   * `?error=` (`TwoFactorError`, with `code` `key_refused`, `rate_limited`, `expired`).
   */
  error?: string
  code?: string
  /** Where to go next (the re-authentication step, for `ReauthenticationRequired`). */
  url: string | null
  /** The new recovery codes, when the key is the user's first second factor: show them once. */
  recoveryCodes?: string[]
}

export interface SecurityKeyOptions {
  /** The server's `basePath`. @default "/auth" */
  basePath?: string
  /** Go to the answer's `url` (not with `recoveryCodes`, which the page must show). @default true */
  redirect?: boolean
  /** Where to go after adding a key (and back to, from the re-authentication step). */
  callbackUrl?: string
}

const refused = (status: number, error: string, url: string | null = null): SecurityKeyResult => ({
  ok: false,
  status,
  error,
  url,
})

async function ceremony(
  step: "security-key" | "security-key-setup",
  options: SecurityKeyOptions,
): Promise<SecurityKeyResult> {
  if (!globalThis.PublicKeyCredential || !navigator.credentials)
    return refused(0, "WebAuthnNotSupported")
  const path = `/two-factor/${step}`
  const query = options.callbackUrl
    ? `?${new URLSearchParams({ callbackUrl: options.callbackUrl })}`
    : ""
  const response = await fetch(`${actionsBase(options.basePath)}${path}${query}`)
  const body = (await response.json().catch(() => ({}))) as Json
  if (!response.ok || !body.options)
    return refused(response.status, body.error ?? "SecurityKeyOptions", body.url ?? null)
  let credential: unknown
  try {
    credential =
      body.action === "register"
        ? await navigator.credentials.create({ publicKey: creationOptions(body.options) })
        : await navigator.credentials.get({ publicKey: requestOptions(body.options) })
  } catch (error) {
    return refused(0, error instanceof Error ? error.name : "WebAuthnError")
  }
  const fields: Json = { data: JSON.stringify(toJSON(credential as Json)) }
  if (options.callbackUrl) fields.callbackUrl = options.callbackUrl
  const answer = await post(path, fields, options.basePath)
  const result = (await answer.json().catch(() => ({}))) as Json
  const url: string | undefined = result.url
  const params = url ? new URL(url).searchParams : undefined
  const error = params?.get("error") ?? result.error ?? undefined
  return {
    ok: answer.ok && !error,
    status: answer.status,
    ...(error ? { error, code: params?.get("code") ?? undefined } : {}),
    url: url ?? null,
    ...(Array.isArray(result.recoveryCodes) ? { recoveryCodes: result.recoveryCodes } : {}),
  }
}

function follow(result: SecurityKeyResult, options: SecurityKeyOptions): SecurityKeyResult {
  const redirect = options.redirect ?? true
  if (redirect && result.url && !result.recoveryCodes) go(result.url)
  return result
}

/**
 * Answers the code step of this browser's pending sign-in with a security key (or one of the
 * user's passkeys); on success the session starts and the browser goes where the sign-in was
 * headed (with `redirect: false`, the result's `url`). A refused key comes back as
 * `{ ok: false, error: "TwoFactorError", code: "key_refused" }` with the code step's `url`.
 *
 * @example
 * ```ts
 * import { useSecurityKey } from "@latch/sveltekit/webauthn"
 *
 * const result = await useSecurityKey({ redirect: false })
 * ```
 */
export async function useSecurityKey(options: SecurityKeyOptions = {}): Promise<SecurityKeyResult> {
  return follow(await ceremony("security-key", options), options)
}

/**
 * Adds a security key (or a passkey) as a second factor of the signed-in user — or as the first
 * one of a sign-in that must set one up (`twoFactor.required`). Needs fresh proof: a session
 * whose sign-in is older than `accountChanges.freshAge` gets `ReauthenticationRequired` and the
 * step's `url` (where the browser goes, unless `redirect: false`). The user's first second
 * factor comes with `recoveryCodes`: the page shows them, once, and the browser stays.
 *
 * @example
 * ```ts
 * import { addSecurityKey } from "@latch/sveltekit/webauthn"
 *
 * const { ok, recoveryCodes } = await addSecurityKey({ callbackUrl: "/settings", redirect: false })
 * ```
 */
export async function addSecurityKey(options: SecurityKeyOptions = {}): Promise<SecurityKeyResult> {
  return follow(await ceremony("security-key-setup", options), options)
}
