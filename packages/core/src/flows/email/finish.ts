/**
 * The link's token redeemed: `POST {basePath}/callback/<email provider>` from the "Continue
 * signing in" page the link opens (`token`, `email` in the body), or the link's own GET when the
 * provider's `continuePage` is off (`?token=…&email=…`).
 *
 * A browser signed in as another user than the address's is refused first, before the token is
 * spent — unless it asked for this link itself, and then switches users (see `signed-in.ts`).
 * Then the token is used up (one `useVerificationToken`, whatever happens next), and checked:
 * the record must be for this address, carry the hash of this token, and not have expired.
 * Anything else — a used, expired, foreign or garbled token — is a `Verification` error and
 * starts no session.
 */
import type { ActionContext } from "../../actions/context.js"
import type { VerificationToken } from "../../adapters.js"
import { EmailSignInError, Verification } from "../../errors.js"
import { timingSafeEqual } from "../../lib/crypto.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import type { Identity } from "../../session/identity.js"
import { normalizeAddress } from "./address.js"
import { emailAdapter } from "./adapter.js"
import { askedForLink, forgetLinkRequest } from "./binding.js"
import { linkSwitchesUser } from "./signed-in.js"
import { tokenHashes } from "./token.js"

/** Longer than any token Latch makes or a sane `generateVerificationToken` returns. */
const MAX_TOKEN_LENGTH = 512

/** Uses the token up under the newest secret it was made with; the record, or null. */
async function useToken(
  ctx: ActionContext,
  address: string,
  hashes: string[],
): Promise<{ record: VerificationToken; hash: string } | null> {
  const adapter = emailAdapter(ctx)
  for (const hash of hashes) {
    const record = await callAdapter("useVerificationToken", () =>
      adapter.useVerificationToken({ identifier: address, token: hash }),
    )
    if (record) return { record, hash }
  }
  return null
}

/** What a redeemed link leads to. */
export interface EmailSignIn {
  /** Who signs in. */
  identity: Identity
  /** Whether the browser is signed in as another user, whom this sign-in replaces. */
  switchesUser: boolean
}

/** What the link carries. */
export interface EmailLink {
  token: unknown
  email: unknown
}

/** Redeems the link's token; returns the identity to sign in. */
export async function finishEmailSignIn(
  ctx: ActionContext,
  provider: EmailConfig,
  { token, email }: EmailLink,
): Promise<EmailSignIn> {
  if (
    typeof token !== "string" ||
    typeof email !== "string" ||
    !token ||
    !email ||
    token.length > MAX_TOKEN_LENGTH
  ) {
    throw new Verification("The sign-in link has no usable token or address")
  }
  let address: string
  try {
    address = normalizeAddress(email, provider.normalizeIdentifier)
  } catch (error) {
    if (error instanceof EmailSignInError) {
      throw new Verification("The sign-in link's address is not usable", { cause: error })
    }
    throw error
  }
  const asked = await askedForLink(ctx, provider, address)
  const switchesUser = await linkSwitchesUser(ctx, provider, address, asked)
  const used = await useToken(ctx, address, await tokenHashes(ctx.config, token))
  if (!used) throw new Verification("The sign-in link is unknown or was already used")
  const { record, hash } = used
  // Whatever the adapter looked the record up by, it must be this token's, for this address.
  const expires = new Date(record.expires).getTime()
  if (
    typeof record.token !== "string" ||
    !timingSafeEqual(record.token, hash) ||
    record.identifier !== address
  ) {
    throw new Verification("The adapter returned a token that does not match the link")
  }
  if (!(expires > Date.now())) throw new Verification("The sign-in link has expired")
  if (asked) forgetLinkRequest(ctx)
  return { identity: await emailIdentity(ctx, provider, address), switchesUser }
}

/** Who a proven address signs in as: its stored user, or a new one with the address verified. */
export async function emailIdentity(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
): Promise<Identity> {
  const adapter = emailAdapter(ctx)
  const stored = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(address))
  return {
    user: stored ?? { id: address, email: address, emailVerified: new Date() },
    account: { provider: provider.id, type: "email", providerAccountId: address },
  }
}
