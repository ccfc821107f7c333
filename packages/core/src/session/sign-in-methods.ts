/**
 * The signed-in user's ways to sign in, and removing one.
 *
 * A user signs in through linked accounts (OAuth, email, passkeys: rows the adapter lists with
 * `listAccountsByUserId`) and a password (`getPasswordHash`). A method counts as a way in only
 * while its provider is configured: an account of a provider the app removed opens nothing.
 * Removing a method is refused when no other way in would be left (`last_method`); email
 * sign-in is no removable method (it is the user's address, which any email link re-links) but
 * it is a way in while an email provider is configured and the address is verified.
 */
import { createContext, type ActionContext } from "../actions/context.js"
import { resolveConfig } from "../config/resolve.js"
import { CookieJar } from "../cookies/jar.js"
import { resolveOrigin } from "../request/host.js"
import type { AccountChange, AuthConfig } from "../types.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import { isEmailProvider, passwordProviderOf } from "../config/providers.js"
import { AccountError, MissingAdapter } from "../errors.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { storesPasskeyFields } from "../flows/webauthn/passkey-fields.js"
import { passkeyDetails, type PasskeyDetails } from "./passkey-details.js"
import { signedInUser as sessionUser } from "./signed-in.js"
import type { PasskeySignals } from "../flows/webauthn/signals.js"
import type { TwoFactorStatus } from "../flows/two-factor/status.js"

/** One way the user signs in. */
export interface SignInMethod {
  type: "oauth" | "oidc" | "email" | "webauthn" | "password"
  /** The provider's id. */
  provider: string
  /** The provider's name, for a page. */
  providerName: string
  /** The account's id at the provider; a passkey's credential id; `""` for the password. */
  id: string
  /** What tells it apart on a page: the address, or the passkey's kind. */
  label?: string
  /** Whether the user may remove it now (never the last way in; never email sign-in). */
  removable: boolean
  /** A passkey's details (`type: "webauthn"`), when the adapter lists the user's passkeys. */
  passkey?: PasskeyDetails
}

function methodsAdapter(ctx: Pick<ActionContext, "config">) {
  return requireMethods(
    ctx.config.adapter!,
    ["getUser", "listAccountsByUserId"],
    "listing sign-in methods",
  )
}

/** The Password provider of the configuration, if any. */
function passwordProvider(ctx: Pick<ActionContext, "config">) {
  return passwordProviderOf(ctx.config.providers)?.provider
}

function accountMethod(ctx: Pick<ActionContext, "config">, account: AdapterAccount) {
  const provider = ctx.config.providers.get(account.provider)
  if (!provider) return undefined
  const type = account.type
  if (type !== "oauth" && type !== "oidc" && type !== "email" && type !== "webauthn")
    return undefined
  const method: SignInMethod = {
    type,
    provider: provider.id,
    providerName: provider.name,
    id: account.providerAccountId,
    removable: false,
  }
  if (type === "email") method.label = account.providerAccountId
  return method
}

/**
 * Says of each passkey whether it is synced or bound to one device, and gives its details, when
 * the adapter knows.
 */
async function labelPasskeys(
  ctx: Pick<ActionContext, "config">,
  user: AdapterUser,
  methods: SignInMethod[],
): Promise<void> {
  const { listAuthenticatorsByUserId } = ctx.config.adapter!
  if (!listAuthenticatorsByUserId || !methods.some((m) => m.type === "webauthn")) return
  const authenticators = await callAdapter("listAuthenticatorsByUserId", () =>
    listAuthenticatorsByUserId.call(ctx.config.adapter, user.id),
  )
  const renamable = storesPasskeyFields(ctx.config.adapter)
  for (const method of methods) {
    const found = authenticators.find((a) => a.credentialID === method.id)
    if (method.type !== "webauthn" || !found) continue
    method.label =
      found.credentialDeviceType === "multiDevice" ? "Synced passkey" : "Passkey on one device"
    method.passkey = passkeyDetails(found, renamable)
  }
}

/** The user's methods, each marked removable or not. */
export async function signInMethodsOf(
  ctx: Pick<ActionContext, "config">,
  user: AdapterUser,
): Promise<SignInMethod[]> {
  const adapter = methodsAdapter(ctx)
  const accounts = await callAdapter("listAccountsByUserId", () =>
    adapter.listAccountsByUserId(user.id),
  )
  const methods: SignInMethod[] = []
  for (const account of accounts) {
    const method = accountMethod(ctx, account)
    if (method) methods.push(method)
  }
  await labelPasskeys(ctx, user, methods)
  const password = passwordProvider(ctx)
  const { getPasswordHash } = ctx.config.adapter!
  if (password && getPasswordHash) {
    const hash = await callAdapter("getPasswordHash", () =>
      getPasswordHash.call(ctx.config.adapter, user.id),
    )
    if (hash)
      methods.push({
        type: "password",
        provider: password.id,
        providerName: password.name,
        id: "",
        removable: false,
      })
  }
  // Email sign-in opens the account through its address, linked or not.
  const email = [...ctx.config.providers.values()].find(isEmailProvider)
  if (email && user.email && user.emailVerified && !methods.some((m) => m.type === "email"))
    methods.push({
      type: "email",
      provider: email.id,
      providerName: email.name,
      id: user.email,
      label: user.email,
      removable: false,
    })
  const waysIn = methods.length
  for (const method of methods) method.removable = method.type !== "email" && waysIn > 1
  return methods
}

/** The signed-in user, or `AccountError("signed_out")`. */
export async function signedInUser(ctx: ActionContext): Promise<AdapterUser> {
  const user = await sessionUser(ctx)
  if (!user) throw new AccountError("no session", { code: "signed_out" })
  return user
}

/** Removes one of the signed-in user's methods: `{ provider, id }` as the list names it. */
export async function removeSignInMethod(
  ctx: ActionContext,
  target: { provider: string; id: string },
): Promise<SignInMethod> {
  const user = await signedInUser(ctx)
  const methods = await signInMethodsOf(ctx, user)
  const method = methods.find((m) => m.provider === target.provider && m.id === target.id)
  if (!method)
    throw new AccountError("no such sign-in method on this account", { code: "not_found" })
  if (!method.removable) {
    const code = method.type === "email" ? "not_found" : "last_method"
    throw new AccountError("this sign-in method cannot be removed", { code })
  }
  const { changeAccount } = await import("../account/change.js")
  await changeAccount(ctx, {
    user,
    change: removalOf(method),
    proof: "session",
    apply: () => removeMethod(ctx, user, method),
  })
  return method
}

/** What removing a method is, as a change of the account. */
function removalOf(method: SignInMethod): AccountChange {
  if (method.type === "password") return { type: "passwordRemoved" }
  if (method.type === "webauthn") return { type: "passkeyRemoved", credentialID: method.id }
  return { type: "accountUnlinked", provider: method.provider, providerAccountId: method.id }
}

/** Deletes the method from the adapter. */
async function removeMethod(
  ctx: ActionContext,
  user: AdapterUser,
  method: SignInMethod,
): Promise<void> {
  const adapter = ctx.config.adapter!
  if (method.type === "password") {
    const remove = requireMethods(adapter, ["deletePasswordHash"], "removing a password")
    await callAdapter("deletePasswordHash", () => remove.deletePasswordHash(user.id))
    return
  }
  const unlink = requireMethods(adapter, ["unlinkAccount"], "removing a sign-in method")
  if (method.type === "webauthn") {
    const remove = requireMethods(adapter, ["deleteAuthenticator"], "removing a passkey")
    await callAdapter("deleteAuthenticator", () => remove.deleteAuthenticator(method.id))
  }
  await callAdapter("unlinkAccount", () =>
    unlink.unlinkAccount({ provider: method.provider, providerAccountId: method.id }),
  )
}

/**
 * The signed-in user's sign-in methods, for a page of theirs (each marked `removable`); `null`
 * when the request has no session. To remove one, post the form to
 * `{basePath}/unlink/<provider>` with its `id` (or use your framework's form action).
 *
 * @example
 * ```ts
 * const methods = await listSignInMethods(request, config)
 * ```
 */
export async function listSignInMethods(
  request: Request,
  config: AuthConfig,
): Promise<SignInMethod[] | null> {
  const found = await requestUser(request, config, "Listing sign-in methods")
  return found && signInMethodsOf(found.ctx, found.user)
}

/**
 * What the browser's WebAuthn Signal API needs to keep its passkeys of this site in step with the
 * signed-in user's (`signalPasskeys` of the browser client); `null` when the request has no
 * session, `undefined` when the app has no WebAuthn provider. The same as `passkeys` in the
 * answer of `GET {basePath}/account`.
 */
export async function getPasskeySignals(
  request: Request,
  config: AuthConfig,
): Promise<PasskeySignals | null | undefined> {
  const found = await requestUser(request, config, "Passkey signals")
  if (!found) return null
  const { passkeySignalsOf } = await import("../flows/webauthn/signals.js")
  return passkeySignalsOf(found.ctx, found.user)
}

/**
 * The request's user's two-factor authentication: on or off, the authenticator app, the security
 * keys; `null` when the request has no session. For a page of theirs that offers to turn it on or
 * off (`{basePath}/two-factor/setup`, `…/security-key-setup`, `…/disable`,
 * `…/security-key-remove`).
 */
export async function getTwoFactorStatus(
  request: Request,
  config: AuthConfig,
): Promise<TwoFactorStatus | null> {
  const found = await requestUser(request, config, "Two-factor authentication")
  if (!found) return null
  const { twoFactorStatusOf } = await import("../flows/two-factor/status.js")
  return twoFactorStatusOf(found.ctx, found.user.id)
}

/** An action context for a request that is not an action (a page's load, a form action). */
export function requestContext(request: Request, config: AuthConfig, feature: string) {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  if (!resolved.adapter) throw new MissingAdapter(`${feature} needs an adapter`)
  const url = new URL(request.url)
  return createContext(
    {
      action: "account",
      providerId: undefined,
      method: "GET",
      url,
      headers: request.headers,
      query: {},
      body: {},
      cookies: new CookieJar(request.headers.get("cookie")),
      request,
    },
    resolved,
    resolveOrigin(url, resolved),
  )
}

/** The request's context and signed-in user; `null` when it has no session. */
async function requestUser(request: Request, config: AuthConfig, feature: string) {
  const ctx = requestContext(request, config, feature)
  try {
    return { ctx, user: await signedInUser(ctx) }
  } catch (error) {
    if (error instanceof AccountError) return null
    throw error
  }
}

/** What a page shows to set up an authenticator app. */
export interface TwoFactorSetupData {
  /** The new secret, base32 (to type by hand). */
  secret: string
  /** The `otpauth://` URI authenticator apps read. */
  uri: string
  /** A QR code of `uri`, as an inline `<svg>` (made by Latch: safe to insert as HTML). */
  qrSvg: string
  /** The sealed secret: post it back as the `setup` field with the code. */
  setup: string
  /** Whether the user has a factor already (then a code of it is asked too, as `currentCode`). */
  replacing: boolean
}

/**
 * A new authenticator setup for the request's user — the signed-in user, or the user of a
 * pending sign-in that must set one up (`twoFactor.required`); `null` for anyone else. Nothing is
 * stored until the form is posted with a code of the new secret.
 */
export async function beginTwoFactorSetup(
  request: Request,
  config: AuthConfig,
): Promise<TwoFactorSetupData | null> {
  const ctx = requestContext(request, config, "Two-factor authentication")
  const [{ pendingSignIn }, { beginSetup, userById }, { qrSvg }] = await Promise.all([
    import("../flows/two-factor/pending.js"),
    import("../flows/two-factor/enrol.js"),
    import("../lib/qr-svg.js"),
  ])
  const pending = await pendingSignIn(ctx)
  let user: AdapterUser | null = null
  if (pending?.mode === "enrol") user = await userById(ctx, pending.userId)
  else {
    try {
      user = await signedInUser(ctx)
    } catch (error) {
      if (!(error instanceof AccountError)) throw error
    }
  }
  if (!user) return null
  const setup = await beginSetup(ctx, user)
  return { ...setup, qrSvg: qrSvg(setup.uri, { label: "QR code for your authenticator app" }) }
}
