/** The callbacks of the configuration, and what each receives. */
import type { AdapterSession, AdapterUser } from "./adapter.js"
import type { Awaitable } from "./common.js"
import type { JWT } from "./jwt.js"
import type { Account, Profile, Session, SessionFields, User } from "./resources.js"

/** Parameters of the `signIn` callback. */
export interface SignInCallbackParams {
  user: User | AdapterUser
  /** The account signed in with; `null` for credentials. */
  account?: Account | null
  profile?: Profile
  email?: { verificationRequest?: boolean }
  credentials?: Record<string, unknown>
}

/** Parameters of the `jwt` callback. */
export interface JWTCallbackParams {
  /** On sign-in, a token with `name`, `email`, `picture` and `sub`; otherwise the whole JWT. */
  token: JWT
  /** Set on sign-in (`trigger` is `"signIn"` or `"signUp"`). */
  user: User | AdapterUser
  /** Set on sign-in. */
  account?: Account | null
  /** Set on OAuth sign-in. */
  profile?: Profile
  /**
   * Why the callback runs; undefined for an ordinary session read. `"refresh"`: the provider's
   * tokens were just refreshed (a provider with `refresh` on); `account` holds the new ones.
   */
  trigger?: "signIn" | "signUp" | "update" | "refresh"
  /** @deprecated use `trigger === "signUp"` */
  isNewUser?: boolean
  /** With `trigger: "update"`: the data sent by the client. Validate it before use. */
  session?: any
}

/**
 * Parameters of the `session` callback. Which of them are set depends on the session strategy:
 * with `"jwt"`, `session` and `token`; with `"database"`, `session` (the stored session and its
 * user) and `user`. They are typed together, so that a callback written for either strategy
 * reads its own parameters without checks:
 *
 * @example
 * ```ts
 * callbacks: {
 *   session({ session, token }) { // "jwt"
 *     session.user.id = token.sub!
 *     return session
 *   },
 * }
 * // or, with an adapter:
 * callbacks: {
 *   session({ session, user }) { // "database"
 *     session.user.id = user.id
 *     return session
 *   },
 * }
 * ```
 */
export type SessionCallbackParams = ({
  /** With `"database"`: the stored session, with its user. */
  session: { user: AdapterUser } & AdapterSession
  /** With `"database"`: the session's user, as stored. */
  user: AdapterUser
} & {
  /** With `"jwt"`: the session built from the token (`name`, `email`, `image`, `expires`). */
  session: Session
  /** With `"jwt"`: the session token, as returned by the `jwt` callback. */
  token: JWT
}) & {
  /** With `trigger: "update"`: the data the client sent. Validate it before use. */
  newSession: any
  /** `"update"` when the client updates the session; otherwise undefined. */
  trigger?: "update"
}

/** Callbacks: each may be async. */
export interface CallbacksOptions {
  /**
   * Whether the user may sign in. Return `false` (or throw) to refuse with `AccessDenied`, or a
   * URL to send the user there instead.
   */
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  /**
   * Where a user may be redirected after sign-in or sign-out. By default only URLs of the same
   * origin as `baseUrl`.
   */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** What the client sees as the session. Token data reaches the client only if returned here. */
  session: (params: SessionCallbackParams) => Awaitable<Session | SessionFields>
  /** The JWT stored in the session cookie. Returning `null` ends the session. */
  jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>
}
