/**
 * Who is this user? With an adapter, an OAuth sign-in is matched to a stored user: by the
 * account (a returning user), by the signed-in session (linking another provider), or by email
 * — which is refused with `OAuthAccountNotLinked` unless the provider opts in with
 * `allowDangerousEmailAccountLinking`, since whoever controls that address at a careless
 * provider would otherwise get the account — and otherwise a new user is created and linked.
 * Without an adapter there is nothing to match: the provider's user is the user.
 */
import type { ActionContext } from "../actions/context.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import {
  AccountError,
  AccountNotLinked,
  CallbackRouteError,
  OAuthAccountNotLinked,
} from "../errors.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import type { Account, TokenSet, User } from "../types.js"
import type { Identity } from "./establish.js"
import { emitEvent } from "./events.js"
import { refreshingProvider, tokenFields } from "./refresh-config.js"
import { signedInUserId } from "./signed-in.js"

/** The user the session is for, and whether they were created by this sign-in. */
export interface ResolvedUser {
  user: User | AdapterUser
  isNewUser: boolean
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
 * Whether the user is a password account whose address is not proven yet: whoever signed up
 * may not own the address, so such an account adopts no other sign-in method (a victim who
 * later proves the address would find the squatter's GitHub linked to it), and is adopted by
 * none without losing its password (see `discardUnprovenPassword`).
 */
async function isUnprovenPasswordAccount(ctx: ActionContext, user: AdapterUser): Promise<boolean> {
  const { getPasswordHash } = ctx.config.adapter ?? {}
  if (user.emailVerified || !user.email || !getPasswordHash) return false
  const hash = await call("getPasswordHash", () =>
    getPasswordHash.call(ctx.config.adapter, user.id),
  )
  return hash !== null && hash !== undefined
}

/** Refuses to link another method to an unverified password account (`AccountError`). */
async function refuseUnprovenAdopter(ctx: ActionContext, user: AdapterUser): Promise<void> {
  if (await isUnprovenPasswordAccount(ctx, user))
    throw new AccountError(
      "Confirm the account's address before linking another sign-in method to it",
      { code: "unverified" },
    )
}

/**
 * Another method takes over an account whose address is unproven (email linking allowed by an
 * OAuth provider): the password set before the address was proven may be a squatter's, so it
 * goes; the owner sets one of their own afterwards.
 */
async function discardUnprovenPassword(ctx: ActionContext, user: AdapterUser): Promise<void> {
  const { deletePasswordHash } = ctx.config.adapter ?? {}
  if (!deletePasswordHash || !(await isUnprovenPasswordAccount(ctx, user))) return
  await call("deletePasswordHash", () => deletePasswordHash.call(ctx.config.adapter, user.id))
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
    let user = owner
    if (!owner.emailVerified && owner.email === address) {
      // A password set while the address was unproven may be someone else's: whoever signed up
      // with this address before its owner (account pre-hijacking). Proving the address by link
      // discards it; the owner sets a password of their own afterwards.
      const { deletePasswordHash } = adapter
      if (deletePasswordHash)
        await call("deletePasswordHash", () => deletePasswordHash.call(adapter, owner.id))
      user = await call("updateUser", () =>
        adapter.updateUser({ id: owner.id, emailVerified: new Date() }),
      )
      await emitEvent(ctx, "updateUser", { user })
    }
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
  let user: AdapterUser
  if (identity.isNewUser) {
    user = await call("createUser", () =>
      adapter.createUser({
        id: String(identity.user.id),
        email: identity.user.email ?? "",
        emailVerified: null,
        ...(identity.user.name ? { name: identity.user.name } : {}),
      }),
    )
    await emitEvent(ctx, "createUser", { user })
  } else {
    user = identity.user as AdapterUser
    await refuseUnprovenAdopter(ctx, user)
  }
  await link(ctx, adapter, user, account, undefined)
  await call("createAuthenticator", () =>
    adapter.createAuthenticator({ ...authenticator, userId: user.id }),
  )
  return { user, isNewUser: identity.isNewUser === true }
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
    if (current) {
      await refuseUnprovenAdopter(ctx, current)
      await link(ctx, adapter, current, account, profile)
      return { user: current, isNewUser: false }
    }
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
      await discardUnprovenPassword(ctx, byEmail)
      await link(ctx, adapter, byEmail, account, profile)
      return { user: byEmail, isNewUser: false }
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
