/**
 * The re-authentication step ("Confirm it is you"): how a signed-in user shows they are there,
 * when a change to their account finds the session's proof stale (`change.ts`). It records a
 * fresh proof (`proof.ts`) and sends the user back to where they were.
 *
 * Which ways count depends on the user:
 *
 * - with a second factor: a code of it (the authenticator app's, or a recovery code), a security
 *   key (or passkey) kept as one — possession, the session being the first factor —, or a
 *   passkey that verified the user — the session stands for the first factor, the step adds
 *   the second. A password or a mailed code alone is refused (`second_factor`): either may be
 *   what a thief who stole the session also holds.
 * - without one: the password, a passkey, or a code mailed to the verified address.
 * - anyone: signing in again (the sign-in page, then back), which records a proof too.
 *
 * Tries are limited: passwords as a change of password is (per account), codes as the code step
 * is, mailed codes per account (`email-code.ts`).
 */
import type { ActionContext } from "../actions/context.js"
import type { AdapterUser } from "../adapters.js"
import { isWebAuthnProvider, passwordProviderOf } from "../config/providers.js"
import { AuthError, ReauthenticationRequired, TwoFactorError } from "../errors.js"
import type { PasswordSettings } from "../providers/password.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import { callAdapter } from "../session/adapter-call.js"
import { emitEvent } from "../session/events.js"
import { usesSecondFactor } from "./change.js"
import { canMailCode, mailCode, useMailedCode } from "./email-code.js"
import { recordProof } from "./proof.js"

/** A way the user can confirm it is them. */
export type ReauthenticationMethod = "password" | "code" | "securityKey" | "passkey" | "email"

/** What the step offers the user. */
export interface ReauthenticationOptions {
  /** The ways they may use, best first. */
  methods: ReauthenticationMethod[]
  /** Whether the user has a second factor (then only `code`, `securityKey` and `passkey` are offered). */
  secondFactor: boolean
  /** The WebAuthn provider a passkey is used through (`webauthn-options/<id>`). */
  passkeyProvider?: string
  /** The address a code is mailed to. */
  email?: string
}

/** The first Password provider's settings, if the configuration has one. */
function passwordOf(ctx: Pick<ActionContext, "config">): PasswordSettings | undefined {
  return passwordProviderOf(ctx.config.providers)?.settings
}

/** The first WebAuthn provider of the configuration, if any. */
function passkeyProviderOf(ctx: Pick<ActionContext, "config">): WebAuthnConfig | undefined {
  for (const provider of ctx.config.providers.values())
    if (isWebAuthnProvider(provider)) return provider
  return undefined
}

/** The ways `user` can confirm it is them. */
export async function reauthenticationOptions(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<ReauthenticationOptions> {
  const adapter = ctx.config.adapter!
  const secondFactor = await usesSecondFactor(ctx, user.id)
  const passkey = passkeyProviderOf(ctx)
  // Passkeys that sign in: a key kept as a second factor signs nobody in, here neither.
  const hasPasskey =
    passkey !== undefined &&
    typeof adapter.listAuthenticatorsByUserId === "function" &&
    (
      await callAdapter("listAuthenticatorsByUserId", () =>
        adapter.listAuthenticatorsByUserId!(user.id),
      )
    ).some((authenticator) => authenticator.secondFactor !== true)
  const methods: ReauthenticationMethod[] = []
  if (secondFactor) methods.push("code")
  if (secondFactor && (await hasSecurityKey(ctx, user))) methods.push("securityKey")
  if (hasPasskey) methods.push("passkey")
  if (!secondFactor) {
    const hasPassword =
      passwordOf(ctx) !== undefined &&
      typeof adapter.getPasswordHash === "function" &&
      Boolean(await callAdapter("getPasswordHash", () => adapter.getPasswordHash!(user.id)))
    if (hasPassword) methods.unshift("password")
    if (canMailCode(ctx, user)) methods.push("email")
  }
  return {
    methods,
    secondFactor,
    ...(hasPasskey ? { passkeyProvider: passkey!.id } : {}),
    ...(methods.includes("email") ? { email: user.email } : {}),
  }
}

/** Whether the user has a key kept as a second factor, usable here (the adapter stores them). */
async function hasSecurityKey(ctx: ActionContext, user: AdapterUser): Promise<boolean> {
  const { keyAdapter, keyProvider, secondFactorKeys } = await import("../flows/two-factor/keys.js")
  try {
    keyProvider(ctx)
    keyAdapter(ctx)
  } catch {
    return false
  }
  return (await secondFactorKeys(ctx, user.id)).length > 0
}

/** Checks a security key of the user's (their second factor), counted as the code step counts. */
async function checkSecurityKey(ctx: ActionContext, user: AdapterUser): Promise<void> {
  const { checkKeyForSession } = await import("../flows/two-factor/key-verify.js")
  try {
    await checkKeyForSession(ctx, user)
  } catch (error) {
    if (!(error instanceof TwoFactorError)) throw error
    if (error.code === "rate_limited")
      throw refused("rate_limited", error.message, error.retryAfter)
    throw refused("passkey_failed", error.message)
  }
}

/** A refusal of the step with `code`. */
function refused(code: ReauthenticationRequired["code"], message: string, retryAfter?: number) {
  return new ReauthenticationRequired(message, {
    code,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  })
}

/** Checks the password the form posted (per-account limit as a change of password has). */
async function checkPassword(ctx: ActionContext, user: AdapterUser): Promise<void> {
  const settings = passwordOf(ctx)
  const adapter = ctx.config.adapter!
  if (!settings || !adapter.getPasswordHash) throw refused("no_method", "no Password provider")
  const [{ PASSWORD_LIMITS, withinChangeLimit }, { checkPassword: check }, { postedPassword }] =
    await Promise.all([
      import("../flows/password/rate-limit.js"),
      import("../flows/password/hashing.js"),
      import("../flows/password/common.js"),
    ])
  if (!(await withinChangeLimit(ctx, user.id)))
    throw refused("rate_limited", "too many passwords", PASSWORD_LIMITS.changePerAccount.window)
  const stored = await callAdapter("getPasswordHash", () => adapter.getPasswordHash!(user.id))
  if (!stored) throw refused("no_method", "the account has no password")
  const result = await check(
    ctx,
    settings,
    postedPassword(ctx.request.body.password),
    stored,
    "reauthenticate",
  )
  if (!result.ok) throw refused("wrong_password", "wrong password")
}

/** Checks a code of the second factor (counted as the code step counts them). */
async function checkCode(ctx: ActionContext, user: AdapterUser): Promise<void> {
  const { checkSecondFactor } = await import("../flows/two-factor/verify.js")
  const { code, recoveryCode } = ctx.request.body
  try {
    await checkSecondFactor(ctx, user, { code, recoveryCode }, "reauthenticate")
  } catch (error) {
    if (!(error instanceof TwoFactorError)) throw error
    const known = ["wrong_code", "replayed_code", "rate_limited"] as const
    const code = known.find((c) => c === error.code) ?? "wrong_code"
    throw refused(code, error.message, error.retryAfter)
  }
}

/** Checks a passkey assertion of the user's own; whether it verified the user. */
async function checkPasskey(ctx: ActionContext, user: AdapterUser): Promise<boolean> {
  const provider = passkeyProviderOf(ctx)
  if (!provider) throw refused("no_method", "no WebAuthn provider")
  const { finishWebAuthn } = await import("../flows/webauthn/finish.js")
  let identity
  try {
    identity = await finishWebAuthn(ctx, provider)
  } catch (error) {
    if (error instanceof AuthError)
      throw refused("passkey_failed", "the passkey's response was refused")
    throw error
  }
  // An authentication by one of the user's own passkeys: not a registration, not another user's.
  if (identity.authenticator || String(identity.user.id) !== user.id)
    throw refused("passkey_failed", "the passkey is not one of the signed-in user's")
  return identity.userVerified === true
}

/**
 * Runs the step's post for `user`: `method` is `password`, `code`, `securityKey` (`data`: the
 * assertion for `{basePath}/two-factor/security-key`'s options), `passkey`, or `email` (with
 * `send` to mail a code, else `emailCode` to use one). Returns `"sent"` after mailing a code,
 * `"confirmed"` once a fresh proof is recorded; throws `ReauthenticationRequired` otherwise.
 */
export async function reauthenticate(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<"sent" | "confirmed"> {
  const options = await reauthenticationOptions(ctx, user)
  const method = ctx.request.body.method
  const chosen = options.methods.find((m) => m === method)
  if (!chosen) {
    // A way the user has, but one that proves only what the session already does.
    const weak = (method === "password" || method === "email") && options.secondFactor
    // The posted value is the client's: named by the code alone, never copied into a log line.
    throw refused(weak ? "second_factor" : "no_method", "not a way this user can confirm with")
  }
  let secondFactor = false
  if (chosen === "password") await checkPassword(ctx, user)
  else if (chosen === "code") {
    await checkCode(ctx, user)
    secondFactor = true
  } else if (chosen === "securityKey") {
    await checkSecurityKey(ctx, user)
    secondFactor = true
  } else if (chosen === "passkey") {
    secondFactor = await checkPasskey(ctx, user)
    if (options.secondFactor && !secondFactor)
      throw refused("second_factor", "the passkey did not verify the user")
  } else if (ctx.request.body.send === "1") {
    await mailCode(ctx, user)
    return "sent"
  } else await useMailedCode(ctx, user, ctx.request.body.emailCode)
  await recordProof(ctx, user.id, { secondFactor })
  await emitEvent(ctx, "reauthenticated", { user, method: chosen })
  return "confirmed"
}
