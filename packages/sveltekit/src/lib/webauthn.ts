/**
 * The browser side of passkeys: `signIn` runs the WebAuthn ceremony for a WebAuthn provider
 * (through `@simplewebauthn/browser`, an optional peer: install it to use this module) and
 * signs in with its result; for any other provider it is `signIn` from `@latch/sveltekit/client`.
 *
 * Adding a passkey (`action: "register"`) is a change of the account: a signed-in user whose
 * sign-in is older than `accountChanges.freshAge` is first sent to the re-authentication step
 * (with `redirect: false`, the result is `{ ok: false, error: "ReauthenticationRequired", url }`),
 * which comes back to the page once they have confirmed it is them.
 *
 * 1. `GET {basePath}/webauthn-options/<provider>` → `{ action, options }` (and the challenge cookie);
 * 2. `startRegistration` or `startAuthentication` asks the browser for a credential;
 * 3. `POST {basePath}/signin/<provider>` with `action` and `data` (the credential's JSON), which
 *    the server verifies like any sign-in, answering where to go.
 *
 * It also speaks the WebAuthn Signal API where the browser has it: a passkey the server does not
 * know (`unknown-credential`) is reported with `signalUnknownCredential`, and `signalPasskeys`
 * tells the browser the signed-in user's passkeys and names (`passkey-signals.ts`).
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser"
import type { ProviderId } from "@latch/core/providers"
import { actionsBase } from "./client-base.js"
import { signalUnknownCredential } from "./passkey-signals.js"
import { signInRequest } from "./sign-in-request.js"
import {
  signIn as signInWithClient,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
} from "./client.js"

export { signOut, getSession, updateSession } from "./client.js"
export { signalPasskeys, type PasskeySignals } from "./passkey-signals.js"
export {
  addSecurityKey,
  useSecurityKey,
  type SecurityKeyOptions,
  type SecurityKeyResult,
} from "./security-key.js"
export type {
  BasePathOption,
  SignInAuthorizationParams,
  SignInOptions,
  SignInResponse,
  SignInResult,
  SignOutOptions,
  SignOutParams,
  SignOutResponse,
} from "./client.js"

/** Options of `signIn` for a WebAuthn provider. */
export interface WebAuthnSignInOptions<
  Redirect extends boolean = true,
> extends SignInOptions<Redirect> {
  /**
   * `"register"` adds a passkey to the signed-in user's account, `"authenticate"` signs in with
   * one. Registering without being signed in fails with `WebAuthnRegistrationRequiresSignIn`,
   * unless this browser proved its address in a passkey-first sign-up (`Passkey({ signUp: true })`:
   * then it creates that account) or the provider's `getUserInfo` vouches for a new account.
   * @default decided by the server: register for a signed-in user or a proven sign-up, else
   * authenticate
   */
  action?: "register" | "authenticate"
  /** Passed to the provider's `getUserInfo` (the default ignores it). */
  email?: string
  /**
   * Sign in through the browser's autofill (WebAuthn conditional mediation): the promise
   * settles when the user picks a passkey in the suggestions of an input with
   * `autocomplete="username webauthn"`. Start it when the page loads; any other ceremony
   * cancels it.
   */
  conditional?: boolean
}

/** The provider types by id, fetched once per page and base path. */
const types = new Map<string, Promise<Record<string, { type: string }>>>()

async function providerType(root: string, provider: string): Promise<string | undefined> {
  let list = types.get(root)
  if (!list) {
    list = fetch(`${root}/providers`).then((response) => response.json())
    types.set(root, list)
    list.catch(() => types.delete(root))
  }
  return (await list)[provider]?.type
}

/**
 * The pending autofill (conditional) ceremony's, until it asks the browser. Any other ceremony
 * aborts it first, its options request included: a late answer would replace the challenge
 * cookie of the newer ceremony (whose passkey would then be refused), and asking the browser
 * after would take the newer one's place (`@simplewebauthn/browser` aborts the pending request
 * for a new one). Once it has asked, `@simplewebauthn/browser` aborts it for the next.
 */
let autofill: AbortController | undefined

const failure = (status: number, error: string, url: string | null = null): SignInResponse => ({
  ok: false,
  status,
  error,
  code: undefined,
  url,
})

/**
 * Signs in. For a WebAuthn provider (`passkey`), registers or uses a passkey; for any other,
 * does what `signIn` from `@latch/sveltekit/client` does.
 *
 * A ceremony that does not reach the server resolves to `{ ok: false }` with `error` set to the
 * browser's reason (`NotAllowedError` when the user cancels) or to the server's refusal of the
 * options, whatever `redirect` says: there is nowhere to go. The server's refusals are
 * `WebAuthnRegistrationRequiresSignIn` (403: sign in first, then add a passkey),
 * `ReauthenticationRequired` (403: confirm it is you first; `url` is the step, where the browser
 * goes unless `redirect: false`),
 * `WebAuthnRateLimited` (429: too many requests from this network; try again later),
 * `InvalidRequest` (400) and `WebAuthnNotEnabled` (404).
 *
 * @example
 * ```ts
 * import { signIn } from "@latch/sveltekit/webauthn"
 *
 * await signIn("passkey")                                  // sign in with a passkey
 * await signIn("passkey", { action: "register" })          // add one to the signed-in user
 * const result = await signIn("passkey", { redirect: false, conditional: true }) // autofill
 * ```
 */
export async function signIn(
  provider?: ProviderId,
  options?: WebAuthnSignInOptions<true>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<void>
export async function signIn(
  provider?: ProviderId,
  options?: WebAuthnSignInOptions<false>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse>
export async function signIn(
  provider?: ProviderId,
  options?: WebAuthnSignInOptions<boolean>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined>
export async function signIn(
  provider?: ProviderId,
  options: WebAuthnSignInOptions<boolean> = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | void> {
  const { action, email, conditional, ...rest } = options
  const mine = conditional ? new AbortController() : undefined
  if (mine) {
    autofill?.abort()
    autofill = mine
  }
  const root = actionsBase(options.basePath)
  if (!provider || (await providerType(root, provider)) !== "webauthn") {
    return signInWithClient(provider, options, authorizationParams)
  }
  if (!mine) autofill?.abort()
  if (!browserSupportsWebAuthn()) return failure(0, "WebAuthnNotSupported")

  const query = new URLSearchParams(authorizationParams)
  // Where the re-authentication step comes back to, should adding a passkey ask for it.
  const back = rest.redirectTo ?? rest.callbackUrl ?? location.href
  if (typeof back === "string") query.set("callbackUrl", back)
  if (action) query.set("action", action)
  else if (conditional) query.set("action", "authenticate")
  if (email) query.set("email", email)
  const aborted = () => failure(0, "AbortError")
  let response: Response
  try {
    const path = `${root}/webauthn-options/${encodeURIComponent(provider)}?${query}`
    response = await fetch(path, { signal: mine?.signal })
  } catch (error) {
    if (mine?.signal.aborted) return aborted()
    throw error
  }
  const body = (await response.json().catch(() => ({}))) as {
    action?: "register" | "authenticate"
    options?: Record<string, any>
    error?: string
    url?: string
  }
  if (!response.ok || !body.action || !body.options) {
    const step = body.error === "ReauthenticationRequired" ? (body.url ?? null) : null
    // Adding a passkey is a change of the account: the user confirms it is them first, then
    // comes back here.
    if (step && rest.redirect !== false) {
      location.href = step
      return
    }
    return failure(response.status, body.error ?? "WebAuthnOptions", step)
  }

  // Aborted while the options were read: another ceremony has started.
  if (mine?.signal.aborted) return aborted()
  if (autofill === mine) autofill = undefined

  let credential: unknown
  try {
    credential =
      body.action === "register"
        ? await startRegistration({ optionsJSON: body.options as any })
        : await startAuthentication({
            optionsJSON: body.options as any,
            useBrowserAutofill: conditional === true,
          })
  } catch (error) {
    return failure(0, error instanceof Error ? error.name : "WebAuthnError")
  }
  const { redirect = true, basePath, redirectTo = rest.callbackUrl ?? location.href } = rest
  const fields = { ...rest, ...(email ? { email } : {}), action: body.action }
  delete fields.redirect
  delete fields.basePath
  delete fields.redirectTo
  return signInRequest(
    provider,
    { ...fields, callbackUrl: redirectTo, data: JSON.stringify(credential) },
    basePath,
    authorizationParams,
    redirect,
    // A passkey the site does not know (removed from the account, or its account deleted): the
    // browser is told, so that its passkey provider stops offering it.
    async (code) => {
      if (code !== "unknown-credential") return
      const rpId = typeof body.options?.rpId === "string" ? body.options.rpId : location.hostname
      await signalUnknownCredential(rpId, (credential as { id: string }).id)
    },
  )
}

/** Whether this browser can use passkeys at all. */
export function supportsPasskeys(): boolean {
  return browserSupportsWebAuthn()
}

/** Whether this browser offers passkeys in an input's autofill (for `conditional: true`). */
export function supportsPasskeyAutofill(): Promise<boolean> {
  return browserSupportsWebAuthnAutofill()
}
