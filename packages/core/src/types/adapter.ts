/** The interface between Latch and a database, and the records an adapter stores. */
import type { Awaitable } from "./common.js"
import type { ProviderType } from "./provider-common.js"
import type { Account, Authenticator, User } from "./resources.js"

/** A user stored by an adapter. */
export interface AdapterUser extends User {
  id: string
  email: string
  /** When the user proved they own `email` (email sign-in), or `null`. */
  emailVerified: Date | null
}

/**
 * The kinds of account an adapter stores. Credentials sign-ins store no account (their user
 * comes from `authorize`).
 */
export type AdapterAccountType = Extract<ProviderType, "oauth" | "oidc" | "email" | "webauthn">

/** An account stored by an adapter: how a user signs in with one provider. */
export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

/** A database session. */
export interface AdapterSession {
  /**
   * What names the session in the database: with `session.hashTokens` (the default) the
   * SHA-256 of the cookie's random token, in lowercase hex; the token itself otherwise (and in
   * rows Auth.js wrote).
   */
  sessionToken: string
  userId: string
  /** When the session expires. */
  expires: Date
  /**
   * Latch's session fields, stored by adapters that implement `deleteSessionById` (Latch passes
   * them to no other, so that an adapter written for Auth.js never sees a column it lacks):
   * an id naming the session without its token, so that a page can list and revoke sessions.
   */
  id?: string
  /** A summary of the browser's user agent at sign-in ("Firefox on Linux"). */
  userAgent?: string | null
  /** The client's IP address at sign-in, as the platform reported it. */
  clientAddress?: string | null
  /** When the session was created. */
  createdAt?: Date | null
  /** When the session was last seen, to within `session.updateAge`. */
  lastSeenAt?: Date | null
}

/**
 * A change to stored sessions, as an adapter's `watchSessions` reports it: one session (by its
 * stored `sessionToken`), or every session of a user (the user changed or was deleted, or all
 * their sessions were).
 */
export type SessionChange = { sessionToken: string } | { userId: string }

/** What `watchSessions` calls. */
export interface SessionChangeListener {
  /** Sessions changed or ended. */
  changed(change: SessionChange): void
  /**
   * Whether every change is being delivered. `false` as soon as that is in doubt (the listening
   * connection dropped or stopped answering); `true` again once listening has resumed — from
   * then on every change is delivered, but those in between may have been missed.
   */
  live(live: boolean): void
}

/** A running `watchSessions`. */
export interface SessionWatch {
  /** Stops listening and frees its connection. */
  close(): Awaitable<void>
}

/** A single-use email sign-in token. Adapters receive and store it already hashed. */
export interface VerificationToken {
  /** The email address the token was sent to. */
  identifier: string
  expires: Date
  /** The token's hash. */
  token: string
}

/** A user's second factor as the adapter stores it. */
export interface AdapterTwoFactor {
  userId: string
  /** The TOTP secret, encrypted by Latch under the secret: store it as it is. */
  secret: string
  /** When the user turned it on. */
  enabledAt: Date
}

/**
 * A passkey stored by an adapter. The fields after `userId` are Latch's passkey fields, stored by
 * adapters that implement `updateAuthenticator` (Latch passes them to no other, so that an
 * adapter written for Auth.js never sees a column it lacks).
 */
export interface AdapterAuthenticator extends Authenticator {
  userId: string
  /** The name the user gave it (at most 64 characters), or the model's name at registration. */
  name?: string | null
  /** When it was registered. */
  createdAt?: Date | null
  /** When it last signed in (`null`: never since it was registered). */
  lastUsedAt?: Date | null
  /**
   * The authenticator model's AAGUID from the registration (lowercase, with dashes), naming the
   * kind of authenticator ("iCloud Keychain", "YubiKey 5"); `null` when it sent none (all zeros).
   */
  aaguid?: string | null
  /**
   * A summary of the browser's user agent at registration ("Chrome on macOS"): a hint for a page,
   * written by the client, never a fact to decide anything on.
   */
  createdBy?: string | null
  /**
   * Reserved for a credential enrolled as a second factor rather than as a way in; `false` for
   * every passkey today. Stored and returned so that data written later reads back the same.
   */
  secondFactor?: boolean
}

/** The fields of a stored passkey that `updateAuthenticator` changes. */
export type AdapterAuthenticatorUpdate = Partial<
  Pick<AdapterAuthenticator, "counter" | "name" | "lastUsedAt" | "secondFactor">
>

/** The methods an adapter implements. Each is optional; flows check for what they need. */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes the user with their accounts and sessions. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterAccount | undefined | void>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  /** The session and its user, in one lookup. */
  getSessionAndUser?(
    sessionToken: string,
  ): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined | void>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>
  /** Every session of a user ("which devices am I signed in on?"). */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>
  /** Deletes every session of a user ("sign out everywhere"); returns how many. */
  deleteSessionsByUserId?(userId: string): Awaitable<number | void>
  /**
   * Deletes the session `id` if it belongs to `userId`, and returns it; `null` otherwise. An
   * adapter that implements it stores Latch's session fields (`id`, `userAgent`,
   * `clientAddress`, `createdAt`, `lastSeenAt`): `createSession` receives them, `updateSession`
   * may change `lastSeenAt`, and `getSessionAndUser` and `listSessionsByUserId` return them.
   */
  deleteSessionById?(userId: string, id: string): Awaitable<AdapterSession | null>
  /**
   * Reports every change to stored sessions and users, from any instance of the app and from
   * anyone writing the tables by hand, for `session.cache`: a session updated or deleted, a user
   * updated or deleted. `listener.live(true)` once listening; `live(false)` whenever a change may
   * have been missed.
   */
  watchSessions?(listener: SessionChangeListener): Awaitable<SessionWatch>
  createVerificationToken?(
    verificationToken: VerificationToken,
  ): Awaitable<VerificationToken | null | undefined>
  /** Deletes the token and returns it, in one step, so that it can be used only once. */
  useVerificationToken?(params: {
    identifier: string
    token: string
  }): Awaitable<VerificationToken | null>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /** Every account linked to a user (for refreshing tokens, and "how do I sign in?"). */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Replaces the given fields of an account (its tokens, after a refresh) and returns it; `null`
   * when there is no such account. A field given as `null` is cleared.
   */
  updateAccount?(
    account: Pick<AdapterAccount, "provider" | "providerAccountId"> &
      Partial<Omit<AdapterAccount, "provider" | "providerAccountId" | "userId" | "type">>,
  ): Awaitable<AdapterAccount | null>
  /**
   * The password hash of the user's password sign-in (the `Password` provider), or `null` when
   * the user has none. The hash is a string that names its own algorithm and parameters
   * (`$scrypt$ln=17,r=8,p=1$<salt>$<key>`): store it as it is.
   */
  getPasswordHash?(userId: string): Awaitable<string | null>
  /** Stores the user's password hash, replacing any earlier one. */
  setPasswordHash?(userId: string, hash: string): Awaitable<void>
  /** Removes the user's password (the password sign-in method); `true` when there was one. */
  deletePasswordHash?(userId: string): Awaitable<boolean>
  /** The user's second factor (TOTP), or `null` when they have none. */
  getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
  /** Stores the user's second factor, replacing any earlier one. */
  setTwoFactor?(twoFactor: AdapterTwoFactor): Awaitable<void>
  /** Removes the user's second factor and its recovery codes; `true` when there was one. */
  deleteTwoFactor?(userId: string): Awaitable<boolean>
  /** Replaces the user's recovery codes (their hashes, as Latch gives them). */
  setRecoveryCodes?(userId: string, hashes: string[]): Awaitable<void>
  /**
   * Removes one recovery code of the user, atomically: `true` for the one call that removed it,
   * `false` when it was not there (used already, or never was).
   */
  useRecoveryCode?(userId: string, hash: string): Awaitable<boolean>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /**
   * Deletes the passkey `credentialID` and returns it; `null` when there is none. Latch uses it
   * when a user removes a passkey from their account.
   */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  updateAuthenticatorCounter?(
    credentialID: string,
    newCounter: number,
  ): Awaitable<AdapterAuthenticator>
  /**
   * Changes the given fields of the passkey `credentialID` (the others stay as they are) and
   * returns it; `null` when there is none. An adapter that implements it stores Latch's passkey
   * fields (`name`, `createdAt`, `lastUsedAt`, `aaguid`, `createdBy`, `secondFactor`):
   * `createAuthenticator` receives them, and `getAuthenticator`, `listAuthenticatorsByUserId`
   * and `deleteAuthenticator` return them. Latch then updates a passkey's counter and
   * `lastUsedAt` with it, in one write, at each sign-in, and renames passkeys with it.
   */
  updateAuthenticator?(
    credentialID: string,
    fields: AdapterAuthenticatorUpdate,
  ): Awaitable<AdapterAuthenticator | null>
  /**
   * Adds one to the counter named `key` and returns its new value, atomically: of concurrent
   * calls, each sees a different value. A counter that does not exist, or whose `expires` has
   * passed, starts again at 1 and expires at the `expires` given; later calls keep the first
   * `expires`. Expired counters may be deleted at any time.
   *
   * Latch uses it for what must hold across every instance of an app: the email sign-in rate
   * limit (keys `email:address:…`, `email:ip:…`), the credentials sign-in rate limit
   * (`credentials:…`) and the single use of a passkey challenge (`webauthn:challenge:…`). Keys
   * are at most 200 characters. Without it, Latch keeps the counters in the memory of each
   * process and logs the `memory-counter` warning.
   */
  incrementCounter?(key: string, expires: Date): Awaitable<number>
  /**
   * The counter named `key` as `incrementCounter` left it — its count and the expiry of its
   * window — without changing it; `null` when there is none or its `expires` has passed.
   *
   * Latch uses it to check the credentials sign-in rate limit before calling `authorize`. An
   * adapter with `incrementCounter` but without it gets that limit counted in the memory of each
   * process (the `memory-rate-limit` warning); the other counters stay in the adapter.
   */
  getCounter?(key: string): Awaitable<{ count: number; expires: Date } | null>
}
