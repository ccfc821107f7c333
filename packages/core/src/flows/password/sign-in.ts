/**
 * Sign-in with a Password provider: the account by its address, its hash from the adapter, the
 * password checked in constant time. An address without an account, or an account without a
 * password, costs the same scrypt work as a wrong password and is refused the same way, so that
 * neither the answer nor its timing says whether the address has an account. The rate limits
 * (credentials/rate-limit.ts) have counted the attempt before this runs.
 */
import type { ActionContext } from "../../actions/context.js"
import { CredentialsSignin, MissingAdapter } from "../../errors.js"
import { MAX_PASSWORD_LENGTH } from "../../password/hash.js"
import type { PasswordSettings } from "../../providers/password.js"
import type { User } from "../../types.js"
import type { Adapter } from "../../adapters.js"
import { defaultNormalizeIdentifier, isPlainAddress, MAX_ADDRESS_LENGTH } from "../email/address.js"
import { callAdapter, requireMethods } from "../../session/adapter-call.js"
import { burnSignIn, checkPassword, rehashPassword } from "./hashing.js"

/** A refused password sign-in, with the code the sign-in page shows. */
class PasswordSignin extends CredentialsSignin {
  constructor(code: string, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * The address as accounts are keyed, normalized as email sign-in normalizes it (trimmed,
 * lowercased); `""` for anything that is not one plain address (a list, a header, megabytes),
 * which then never reaches the adapter.
 */
export function accountAddress(value: unknown): string {
  if (typeof value !== "string" || value.length > 4 * MAX_ADDRESS_LENGTH) return ""
  const address = defaultNormalizeIdentifier(value)
  return isPlainAddress(address) ? address : ""
}

const PASSWORD_METHODS = ["getUserByEmail", "getPasswordHash", "setPasswordHash"] as const

/** The adapter with what password accounts need, and the `more` methods a form needs. */
export function passwordAdapter<M extends keyof Adapter = never>(
  ctx: Pick<ActionContext, "config">,
  more: readonly M[] = [],
) {
  const adapter = ctx.config.adapter
  if (!adapter) throw new MissingAdapter("The Password provider keeps accounts in an adapter.")
  return requireMethods(adapter, [...PASSWORD_METHODS, ...more], "the Password provider")
}

/** Checks the posted address and password; the user, or a `CredentialsSignin` with a code. */
export async function authorizePassword(
  ctx: ActionContext,
  settings: PasswordSettings,
  credentials: Record<string, unknown>,
): Promise<User> {
  const adapter = passwordAdapter(ctx)
  const email = accountAddress(credentials.email)
  const password = typeof credentials.password === "string" ? credentials.password : ""
  // No hash of a password that no policy would have allowed: refused before any work, which
  // says nothing about the account (the length is the caller's own).
  if (!email || !password || password.length > MAX_PASSWORD_LENGTH)
    throw new PasswordSignin("credentials", "no address or password, or one too long")
  const user = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(email))
  const hash = user
    ? await callAdapter("getPasswordHash", () => adapter.getPasswordHash(user.id))
    : null
  if (!user || !hash) {
    await burnSignIn(ctx, settings, password)
    throw new PasswordSignin("credentials", "no password account for this address")
  }
  const check = await checkPassword(ctx, settings, password, hash, "signIn")
  if (!check.ok) throw new PasswordSignin("credentials", "wrong password")
  // Told only to whoever knows the password: the account exists and waits for its link.
  if (settings.requireEmailVerification && !user.emailVerified)
    throw new PasswordSignin("unverified", "the address is not verified yet")
  if (check.needsRehash) {
    // At capacity, the hash stays as it is until a later sign-in: this one goes on.
    const rehashed = await rehashPassword(settings, password)
    if (rehashed)
      await callAdapter("setPasswordHash", () => adapter.setPasswordHash(user.id, rehashed))
  }
  return user
}
