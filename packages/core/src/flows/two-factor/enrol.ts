/**
 * Turning a second factor on, replacing it, turning it off, and new recovery codes.
 *
 * Setting one up shows a new secret (QR code and text) and asks for a code it makes: the code
 * proves the authenticator app holds the secret before the account depends on it. The secret
 * travels in the form, sealed with the user's id (encrypted and authenticated: not readable,
 * not movable to another account), and is stored only once the code matches. Replacing a
 * factor asks for a code of the current one too; turning it off and new recovery codes ask
 * for a code (or a recovery code) — a session alone changes nothing here. Each goes through
 * the account-change module (`account/change.ts`): fresh proof, a notice to the owner, the
 * `accountChanged` event.
 *
 * Turning it on ends the user's other database sessions: whoever held one without the second
 * factor (perhaps with a stolen password) is out.
 */
import type { ActionContext } from "../../actions/context.js"
import type { AdapterUser } from "../../adapters.js"
import { TwoFactorError } from "../../errors.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"
import { emitEvent } from "../../session/events.js"
import { recordProof } from "../../account/proof.js"
import { endUserSessions } from "../../session/end-sessions.js"
import {
  newRecoveryCodes,
  removeSecondFactor,
  sealSecret,
  storedSecret,
  storeSecret,
  unsealSecret,
} from "./store.js"
import { secondFactorKeys } from "./keys.js"
import { newTotpSecret, otpauthUri } from "./totp.js"
import { checkSecondFactor, checkTotp } from "./verify.js"

/** A setup in progress: what the page shows and posts back. */
export interface TwoFactorSetup {
  /** The new secret, base32. */
  secret: string
  /** The `otpauth://` URI for authenticator apps. */
  uri: string
  /** The sealed secret, posted back with the code as `setup`. */
  setup: string
  /** Whether the user has a factor already (its code is asked too). */
  replacing: boolean
}

/** The name apps show: `twoFactor.issuer`, else the site's host. */
function issuerOf(ctx: ActionContext): string {
  return ctx.config.twoFactor?.issuer ?? new URL(ctx.origin).host
}

/** A new secret for the user, ready to be shown. */
export async function beginSetup(ctx: ActionContext, user: AdapterUser): Promise<TwoFactorSetup> {
  const secret = newTotpSecret()
  return {
    secret,
    uri: otpauthUri({ issuer: issuerOf(ctx), account: user.email || user.id, secret }),
    setup: await sealSecret(ctx, user.id, secret),
    replacing: (await storedSecret(ctx, user.id)) !== null,
  }
}

/** The secret of a posted setup, if it was sealed for this user. */
async function openSetup(ctx: ActionContext, user: AdapterUser, value: unknown): Promise<string> {
  const secret = await unsealSecret(ctx, user.id, value)
  if (!secret)
    throw new TwoFactorError("the setup is not this user's", {
      code: "wrong_code",
      page: "twoFactorSetup",
    })
  return secret
}

/**
 * Confirms a setup with a code of the new secret (and of the current one when replacing);
 * stores it and returns the new recovery codes, to be shown once. A change of the account
 * (`account/change.ts`): a first authenticator needs fresh proof of the session (`proof:
 * "session"`) — or is the step of a sign-in that must set one up (`"signIn"`) — and is refused
 * for an account whose address was never proven; replacing one needs a code of the current one.
 * The owner is mailed a notice. A signed-in user's other database sessions end, and the session
 * that set it up now counts as proven with the second factor.
 */
export async function confirmSetup(
  ctx: ActionContext,
  user: AdapterUser,
  { keepSession, pendingSignIn }: { keepSession: string | undefined; pendingSignIn: boolean },
): Promise<string[]> {
  const { body } = ctx.request
  const replacing = (await storedSecret(ctx, user.id)) !== null
  const { changeAccount } = await import("../../account/change.js")
  const codes = await changeAccount(ctx, {
    user,
    change: { type: replacing ? "twoFactorReplaced" : "twoFactorEnabled" },
    proof: pendingSignIn ? "signIn" : replacing ? "secondFactor" : "session",
    apply: async () => {
      const secret = await openSetup(ctx, user, body.setup)
      if (replacing)
        await checkSecondFactor(ctx, user, { code: body.currentCode }, "twoFactorSetup")
      await checkTotp(ctx, user, secret, body.code, "twoFactorSetup")
      await storeSecret(ctx, user.id, secret)
      return newRecoveryCodes(ctx, user.id)
    },
  })
  if (!pendingSignIn) {
    await endUserSessions(ctx, user.id, keepSession ?? "")
    await recordProof(ctx, user.id, { secondFactor: true })
  }
  await emitEvent(ctx, "twoFactorEnrolled", { user })
  return codes
}

/**
 * Turns the user's authenticator app off, with a code (or a recovery code) of it. The recovery
 * codes go with it; a user who keeps security keys as their second factor gets new ones, returned
 * to be shown once (`null` otherwise: two-factor authentication is off).
 */
export async function disable(ctx: ActionContext, user: AdapterUser): Promise<string[] | null> {
  const { changeAccount } = await import("../../account/change.js")
  const codes = await changeAccount(ctx, {
    user,
    change: { type: "twoFactorDisabled" },
    proof: "secondFactor",
    apply: async () => {
      await checkSecondFactor(ctx, user, ctx.request.body, "account")
      await removeSecondFactor(ctx, user.id)
      const keysRemain = (await secondFactorKeys(ctx, user.id)).length > 0
      return keysRemain ? newRecoveryCodes(ctx, user.id) : null
    },
  })
  if (!codes) await emitEvent(ctx, "twoFactorDisabled", { user })
  return codes
}

/** New recovery codes (the old ones stop working), with a code of the factor. */
export async function regenerateRecoveryCodes(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<string[]> {
  const { changeAccount } = await import("../../account/change.js")
  return changeAccount(ctx, {
    user,
    change: { type: "recoveryCodesRegenerated" },
    proof: "secondFactor",
    apply: async () => {
      await checkSecondFactor(ctx, user, { code: ctx.request.body.code }, "account")
      return newRecoveryCodes(ctx, user.id)
    },
  })
}

/** The stored user with this id (for the pending sign-in's user). */
export async function userById(ctx: ActionContext, id: string): Promise<AdapterUser | null> {
  const adapter = requireMethods(ctx.config.adapter!, ["getUser"], "two-factor authentication")
  return callAdapter("getUser", () => adapter.getUser(id))
}
