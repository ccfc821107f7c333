/**
 * The links the Password provider mails: confirming a new account's address, and resetting a
 * password. A link carries one sealed value (encrypted and authenticated with a key derived from
 * the secret, like the session): what the link is for, the address, the account, where to go
 * afterwards, its expiry — and, for a sign-up, the hash of the chosen password, so that no
 * account exists before its address is proven (nothing to pre-hijack, nothing to enumerate).
 *
 * Each link is also single use: a random nonce inside it is stored hashed as a verification
 * token (`createVerificationToken`), and using the link spends it (`useVerificationToken`). A
 * reset link is bound to the password it replaces as well: once the password changes, by this
 * link or any other way, every other reset link for it stops working.
 */
import type { ActionContext } from "../../actions/context.js"
import { Verification } from "../../errors.js"
import { hmacSha256Hex, randomBase64url, timingSafeEqual } from "../../lib/crypto.js"
import { decryptJWE, encryptJWE } from "../../lib/jwe.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"

/** The key's salt: link values are never valid as a cookie, nor a cookie as a link. */
const SALT = "latch.password-link"

/** Longer than any link value Latch makes (a sign-up's carries a hash, a name, a URL). */
export const MAX_LINK_TOKEN_LENGTH = 4096

/** What a link is for. */
export type LinkPurpose = "signup" | "verify" | "reset"

/** What a link carries. */
export interface LinkClaims {
  purpose: LinkPurpose
  /** The address, normalized. */
  email: string
  /** The account (`verify`, `reset`). */
  userId?: string
  /** The chosen password's hash (`signup`). */
  hash?: string
  /** The name given at sign-up. */
  name?: string
  /** A fingerprint of the password the link replaces (`reset`). */
  replaces?: string
  /** Where the user goes once the link has done its work. */
  callbackUrl: string
  /**
   * A random value the browser that asked for the link holds too (`sign-up-browser.ts`), sealed
   * in a cookie (`signup`): its own click needs no password.
   */
  bind?: string
}

interface Sealed extends LinkClaims {
  nonce: string
  exp: number
}

function tokenAdapter(ctx: Pick<ActionContext, "config">) {
  return requireMethods(
    ctx.config.adapter!,
    ["createVerificationToken", "useVerificationToken"],
    "the Password provider's links",
  )
}

/**
 * The stored form of a link's nonce under one secret: an HMAC, so a database leak yields no
 * working link.
 */
function storedNonce(secret: string, nonce: string): Promise<string> {
  return hmacSha256Hex(secret, `${SALT}\u0000${nonce}`)
}

/** A fingerprint of the current password hash (or of having none), for binding reset links. */
export async function passwordFingerprint(
  ctx: Pick<ActionContext, "config">,
  hash: string | null,
): Promise<string> {
  const digest = await hmacSha256Hex(ctx.config.secrets[0]!, `latch.password-fp\u0000${hash ?? ""}`)
  return digest.slice(0, 32)
}

/** Makes a link's token, valid for `maxAge` seconds, and stores its nonce. */
export async function createLinkToken(
  ctx: ActionContext,
  claims: LinkClaims,
  maxAge: number,
): Promise<{ token: string; expires: Date }> {
  const expires = new Date(Date.now() + maxAge * 1000)
  const nonce = randomBase64url(32)
  const [key] = await ctx.config.keys(SALT)
  const sealed: Sealed = { ...claims, nonce, exp: Math.floor(expires.getTime() / 1000) }
  const token = await encryptJWE(sealed, key!)
  const adapter = tokenAdapter(ctx)
  const record = {
    identifier: claims.email,
    token: await storedNonce(ctx.config.secrets[0]!, nonce),
    expires,
  }
  await callAdapter("createVerificationToken", () => adapter.createVerificationToken(record))
  return { token, expires }
}

function isSealed(value: unknown): value is Sealed {
  const v = value as Partial<Sealed> | null
  return (
    typeof v === "object" &&
    v !== null &&
    (v.purpose === "signup" || v.purpose === "verify" || v.purpose === "reset") &&
    typeof v.email === "string" &&
    typeof v.nonce === "string" &&
    typeof v.exp === "number" &&
    typeof v.callbackUrl === "string" &&
    (v.userId === undefined || typeof v.userId === "string") &&
    (v.hash === undefined || typeof v.hash === "string") &&
    (v.name === undefined || typeof v.name === "string") &&
    (v.replaces === undefined || typeof v.replaces === "string") &&
    (v.bind === undefined || typeof v.bind === "string")
  )
}

/**
 * Opens a link's token without spending it (the new-password page shows its form only for a
 * link that still works). A token that is not ours, for another purpose, or expired is a
 * `Verification` error.
 */
export async function readLinkToken(
  ctx: Pick<ActionContext, "config">,
  token: unknown,
  purposes: readonly LinkPurpose[],
): Promise<Sealed> {
  if (typeof token !== "string" || token === "" || token.length > MAX_LINK_TOKEN_LENGTH)
    throw new Verification("The link has no usable token")
  const opened = await decryptJWE(token, await ctx.config.keys(SALT))
  if (!isSealed(opened) || !purposes.includes(opened.purpose))
    throw new Verification("The link's token is not one of ours")
  if (!(opened.exp > Date.now() / 1000)) throw new Verification("The link has expired")
  return opened
}

/** Opens the token and spends it: a link works once, whatever happens next. */
export async function spendLinkToken(
  ctx: ActionContext,
  token: unknown,
  purposes: readonly LinkPurpose[],
): Promise<LinkClaims> {
  const claims = await readLinkToken(ctx, token, purposes)
  const adapter = tokenAdapter(ctx)
  // Under each secret, newest first: a link mailed before a rotation still works.
  let record = null
  let hash = ""
  for (const secret of ctx.config.secrets) {
    hash = await storedNonce(secret, claims.nonce)
    record = await callAdapter("useVerificationToken", () =>
      adapter.useVerificationToken({ identifier: claims.email, token: hash }),
    )
    if (record) break
  }
  if (
    !record ||
    typeof record.token !== "string" ||
    !timingSafeEqual(record.token, hash) ||
    record.identifier !== claims.email
  )
    throw new Verification("The link was already used")
  if (!(new Date(record.expires).getTime() > Date.now()))
    throw new Verification("The link has expired")
  const { nonce: _nonce, exp: _exp, ...rest } = claims
  return rest
}
