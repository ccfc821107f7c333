/**
 * Who is this user? With an adapter, an OAuth sign-in is matched to a stored user: by the
 * account (a returning user), by the signed-in session (linking another provider), or by email
 * — which is refused with `OAuthAccountNotLinked` unless the provider opts in with
 * `allowDangerousEmailAccountLinking`, since whoever controls that address at a careless
 * provider would otherwise get the account — and otherwise a new user is created and linked.
 * Without an adapter there is nothing to match: the provider's user is the user.
 *
 * A new way in for the signed-in user (another provider, a passkey registered while signed in)
 * is not stored here: it is returned as `adds`, and `establishSession` stores it through the
 * account-change module (`account/change.ts`), which asks for fresh proof first.
 */
import type { ActionContext } from "../actions/context.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import { AccountNotLinked, CallbackRouteError, OAuthAccountNotLinked } from "../errors.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import type { Account, TokenSet, User } from "../types.js"
import type { Identity } from "./identity.js"
import { emitEvent } from "./events.js"
import { refreshingProvider, tokenFields } from "./refresh-config.js"
import { signedInUserId } from "./signed-in.js"
import { adoptAccount } from "../account/adopt.js"

/** A sign-in method to add to the signed-in user, once the change is allowed. */
export interface MethodToAdd {
  account: Account
  profile?: Identity["profile"]
  /** The passkey of a registration. */
  authenticator?: Identity["authenticator"]
}

/** The user the session is for, and whether they were created by this sign-in. */
export interface ResolvedUser {
  user: User | AdapterUser
  isNewUser: boolean
  /** The flow adds a method to the signed-in user rather than signing in. */
  adds?: MethodToAdd
}

const required = [
  "getUserByAccount",
  "getUserByEmail",
  "getUser",
  "createUser",
  "linkAccount",
] as const

type LinkingAdapter = Required<Pick<Adapter, (typeof required)[number]>>

const call = callAdapter

async function link(
  ctx: ActionContext,
  adapter: LinkingAdapter,
  user: AdapterUser,
  account: Account,
  profile: Identity["profile"],
): Promise<void> {
  // Credentials sign-ins never get here: they link no account.
  const stored = { ...account, userId: user.id } as AdapterAccount
  await call("linkAccount", () => adapter.linkAccount(stored))
  await emitEvent(ctx, "linkAccount", { user, account: stored, profile: (profile ?? user) as User })
}

/**
 * A credentials user is whoever `authorize` says. With database sessions (which Auth.js
 * refuses for credentials) that user must be one the adapter knows, found by its id: the
 * session row points at it.
 */
async function credentialsUser(ctx: ActionContext, identity: Identity): Promise<ResolvedUser> {
  const isNewUser = identity.isNewUser === true
  if (ctx.config.session.strategy !== "database") return { user: identity.user, isNewUser }
  const adapter = requireMethods(
    ctx.config.adapter!,
    ["getUser"],
    "credentials with database sessions",
  )
  const id = String(identity.user.id)
  const stored = await call("getUser", () => adapter.getUser(id))
  if (!stored) {
    throw new CallbackRouteError(
      `authorize returned user ${JSON.stringify(id)}, which the adapter does not have: database sessions need stored users`,
    )
  }
  return { user: stored, isNewUser }
}

/**
 * An email sign-in proved that someone controls the address — not that this browser asked for
 * the link. The user is whoever has that email account or that address (now marked verified,
 * and the email account linked); else a new user. A link never attaches its address to the
 * signed-in user: opened by a signed-in browser, it must be for that user's own address, else
 * `AccountNotLinked`. The email flow refuses this before spending the token; this is the same
 * rule where the user is resolved, so that no other path can link an address to a session.
 */
async function emailUser(ctx: ActionContext, identity: Identity): Promise<ResolvedUser> {
  const adapter = requireMethods(ctx.config.adapter!, [...required, "updateUser"], "email sign-in")
  const { account } = identity
  const address = account.providerAccountId
  const key = { provider: account.provider, providerAccountId: address }
  const currentId = await signedInUserId(ctx)
  const byAccount = await call("getUserByAccount", () => adapter.getUserByAccount(key))
  const owner = byAccount ?? (await call("getUserByEmail", () => adapter.getUserByEmail(address)))
  if (currentId && currentId !== owner?.id) {
    throw new AccountNotLinked(
      "The email link is for another user than the one signed in: sign out first, then open the link again",
    )
  }
  if (owner) {
    // Whatever someone set while the address was unproven (a squatter's password, factor,
    // passkeys) is gone: whoever proves an address adopts its account clean.
    const user =
      !owner.emailVerified && owner.email === address ? await adoptAccount(ctx, owner) : owner
    if (!byAccount) await link(ctx, adapter, user, account, undefined)
    return { user, isNewUser: false }
  }
  const created = await call("createUser", () =>
    adapter.createUser({
      id: crypto.randomUUID(),
      email: address,
      emailVerified: new Date(),
    }),
  )
  await emitEvent(ctx, "createUser", { user: created })
  await link(ctx, adapter, created, account, undefined)
  return { user: created, isNewUser: true }
}

/**
 * A WebAuthn sign-in: the credential's owner. A registration stores the credential, linked as
 * an account of type `"webauthn"`, for the signed-in user or for the user it creates (the
 * ceremony checked which, and that a new user's address is free).
 */
async function webAuthnUser(ctx: ActionContext, identity: Identity): Promise<ResolvedUser> {
  const adapter = requireMethods(
    ctx.config.adapter!,
    [...required, "createAuthenticator"],
    "WebAuthn",
  )
  const { account, authenticator } = identity
  if (!authenticator) return { user: identity.user, isNewUser: false }
  // A passkey for the signed-in user: a change of their account, stored once it is allowed.
  if (!identity.isNewUser)
    return {
      user: identity.user as AdapterUser,
      isNewUser: false,
      adds: { account, authenticator },
    }
  const user = await call("createUser", () =>
    adapter.createUser({
      id: String(identity.user.id),
      email: identity.user.email ?? "",
      emailVerified: identity.emailProven === true ? new Date() : null,
      ...(identity.user.name ? { name: identity.user.name } : {}),
    }),
  )
  await emitEvent(ctx, "createUser", { user })
  await storeMethod(ctx, user, { account, authenticator })
  return { user, isNewUser: true }
}

/** Stores a sign-in method for the user: the linked account, and the passkey of a registration. */
export async function storeMethod(
  ctx: ActionContext,
  user: AdapterUser,
  { account, profile, authenticator }: MethodToAdd,
): Promise<void> {
  const adapter = requireMethods(ctx.config.adapter!, ["linkAccount"], "linking accounts")
  await link(ctx, adapter as LinkingAdapter, user, account, profile)
  if (!authenticator) return
  const store = requireMethods(ctx.config.adapter!, ["createAuthenticator"], "WebAuthn")
  const { authenticatorFor } = await import("../flows/webauthn/passkey-fields.js")
  const stored = authenticatorFor(store, { ...authenticator, userId: user.id })
  await call("createAuthenticator", () => store.createAuthenticator(stored))
}

/**
 * A returning user of a provider with `refresh` on: the sign-in's tokens replace the stored
 * ones, which may be expired or refused (the way out of a `RefreshTokenError`). Other providers'
 * accounts keep the tokens of their first sign-in, as Auth.js keeps them.
 */
async function renewStoredTokens(ctx: ActionContext, account: Account): Promise<void> {
  const adapter = ctx.config.adapter
  if (!refreshingProvider(ctx.config, account.provider) || !adapter?.updateAccount) return
  const { provider, providerAccountId } = account
  const fields = tokenFields(account as TokenSet)
  await call("updateAccount", () =>
    adapter.updateAccount!({
      provider,
      providerAccountId,
      // What the new tokens lack (a refresh token, an expiry) is cleared rather than kept stale.
      refresh_token: null as never,
      expires_at: null as never,
      ...fields,
      token_type: fields.token_type?.toLowerCase(),
    }),
  )
}

/** Matches an identity to a stored user, creating or linking as the rules say. */
export async function resolveUser(
  ctx: ActionContext,
  identity: Identity,
  options: { allowEmailLinking: boolean },
): Promise<ResolvedUser> {
  if (!ctx.config.adapter) return { user: identity.user, isNewUser: false }
  if (identity.account.type === "credentials") return credentialsUser(ctx, identity)
  if (identity.account.type === "email") return emailUser(ctx, identity)
  if (identity.account.type === "webauthn") return webAuthnUser(ctx, identity)
  const adapter: LinkingAdapter = requireMethods(ctx.config.adapter, required, "OAuth sign-in")
  const { account, profile } = identity
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }

  const owner = await call("getUserByAccount", () => adapter.getUserByAccount(key))
  const currentId = await signedInUserId(ctx)
  if (owner) {
    // The account belongs to someone else than the signed-in user: never move it.
    if (currentId && currentId !== owner.id) {
      throw new OAuthAccountNotLinked("This account is linked to another user")
    }
    await renewStoredTokens(ctx, account)
    return { user: owner, isNewUser: false }
  }
  if (currentId) {
    const current = await call("getUser", () => adapter.getUser(currentId))
    // Another provider for the signed-in user: a change of their account, stored once allowed.
    if (current) return { user: current, isNewUser: false, adds: { account, profile } }
  }
  const email = identity.user.email?.trim().toLowerCase()
  if (email) {
    const byEmail = await call("getUserByEmail", () => adapter.getUserByEmail(email))
    if (byEmail) {
      if (!options.allowEmailLinking) {
        throw new OAuthAccountNotLinked(
          `Another account already uses this email; "${account.provider}" does not allow linking by email`,
        )
      }
      // The provider vouches for the address: a proof of it, which adopts an unproven account
      // clean (a squatter's password, factor and passkeys go) before the link is made.
      const owner = await adoptAccount(ctx, byEmail)
      const { changeAccount } = await import("../account/change.js")
      await changeAccount(ctx, {
        user: owner,
        change: {
          type: "accountLinked",
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        },
        proof: "link",
        apply: () => link(ctx, adapter, owner, account, profile),
      })
      return { user: owner, isNewUser: false }
    }
  }
  const { id: _providerId, ...fields } = identity.user
  const created = await call("createUser", () =>
    adapter.createUser({
      ...fields,
      id: crypto.randomUUID(),
      // No address is `null`, as Auth.js stores it: a unique email column holds many nulls, but
      // only one "".
      email: (email || null) as string,
      emailVerified: null,
    }),
  )
  await emitEvent(ctx, "createUser", { user: created })
  await link(ctx, adapter, created, account, profile)
  return { user: created, isNewUser: true }
}
