/**
 * The challenge of a WebAuthn ceremony, in pairs like the OAuth checks: `create` puts it in the
 * sealed `webauthnChallenge` cookie (with what the ceremony is for), `use` reads the cookie,
 * deletes it whatever the outcome, and spends the challenge.
 *
 * A challenge is spent in the counter store (the adapter's `incrementCounter`, shared by every
 * instance) until the cookie would have expired, so a captured request replayed together with
 * its cookie is refused even when the authenticator's signature counter stays 0, as synced
 * passkeys' does (WebAuthn Level 3 §13.4.3: the challenge is what prevents replay).
 */
import type { ActionContext } from "../../actions/context.js"
import { CHECK_COOKIE_MAX_AGE } from "../../cookies/defaults.js"
import { sealCookie, unsealCookie } from "../../cookies/seal.js"
import { counterKey, counters } from "../../security/counter.js"
import { WebAuthnVerificationError } from "../../errors.js"

/**
 * What a ceremony is for: signing in, or registering a credential for a user; or, for two-factor
 * authentication, a security key's assertion at the code step of a pending sign-in
 * (`second-factor`) or a key's registration as a second factor (`second-factor-register`). The
 * second-factor ones name the pending sign-in they belong to (its nonce), so that a challenge of
 * one ceremony is refused by every other: a primary sign-in's challenge proves no second factor,
 * and a code step's challenge signs nobody in.
 */
export type Ceremony =
  | {
      action: "second-factor"
      provider: string
      challenge: string
      expires: number
      /** The pending sign-in's user (or the signed-in user confirming it is them). */
      userId: string
      /** The pending sign-in's nonce; absent for the re-authentication step of a session. */
      pending?: string
    }
  | {
      action: "second-factor-register"
      provider: string
      challenge: string
      expires: number
      /** The user the key is for. */
      userId: string
      /** The pending sign-in's nonce, when it is a required setup; absent for a signed-in user. */
      pending?: string
    }
  | { action: "authenticate"; provider: string; challenge: string; expires: number }
  | {
      action: "register"
      provider: string
      challenge: string
      expires: number
      /** The user the credential is for: the signed-in one, or a new one with this email. */
      user: { id: string; email?: string; name?: string }
      /** Whether the user is stored (then it is the signed-in user). */
      exists: boolean
      /** A passkey-first sign-up: the id of the proof of the address it spends. */
      signUp?: string
    }

/** A ceremony before its expiry is set (each member of the union without `expires`). */
export type NewCeremony = Ceremony extends infer C
  ? C extends unknown
    ? Omit<C, "expires">
    : never
  : never

/** Puts the ceremony into the challenge cookie. */
export async function createCeremony(ctx: ActionContext, ceremony: NewCeremony): Promise<void> {
  const maxAge = ctx.cookieOptions.webauthnChallenge.options.maxAge ?? CHECK_COOKIE_MAX_AGE
  const value: Ceremony = { ...ceremony, expires: Date.now() + maxAge * 1000 } as Ceremony
  await sealCookie(ctx, "webauthnChallenge", JSON.stringify(value))
}

function parse(value: string): Ceremony | undefined {
  try {
    const ceremony = JSON.parse(value) as Ceremony
    const valid =
      (ceremony.action === "authenticate" ||
        ceremony.action === "register" ||
        ceremony.action === "second-factor" ||
        ceremony.action === "second-factor-register") &&
      typeof ceremony.challenge === "string" &&
      typeof ceremony.provider === "string" &&
      typeof ceremony.expires === "number"
    return valid ? ceremony : undefined
  } catch {
    return undefined
  }
}

/**
 * The ceremony of the challenge cookie, spent: the cookie is deleted, and the challenge can
 * never be used again. Throws `WebAuthnVerificationError` when there is none, it expired, it
 * belongs to another provider, or it was spent already.
 */
export async function useCeremony(ctx: ActionContext, provider: string): Promise<Ceremony> {
  const value = await unsealCookie(ctx, "webauthnChallenge")
  const ceremony = value === undefined ? undefined : parse(value)
  if (!ceremony || ceremony.provider !== provider) {
    throw new WebAuthnVerificationError("The WebAuthn challenge cookie is missing or expired", {
      code: "challenge",
    })
  }
  const increment = counters(ctx.config)
  const key = await counterKey(ctx.config, "webauthn:challenge", ceremony.challenge)
  if ((await increment(key, new Date(ceremony.expires))) > 1) {
    throw new WebAuthnVerificationError("The WebAuthn challenge was used already", {
      code: "replay",
    })
  }
  return ceremony
}
