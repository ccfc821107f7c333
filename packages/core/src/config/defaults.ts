/** Default callbacks and options; nothing else lives here. */
import type { CallbacksOptions, Session, SessionCallbackParams, User } from "../types.js"

/** The default `redirect` callback: only URLs of the site's own origin; anything else → home. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const base = new URL(baseUrl)
    // Parsed, never prefix-matched: "//evil.example", "/\\evil.example" and
    // "https://site.example@evil.example" all resolve to another origin here.
    const target = new URL(url, base)
    if (target.origin === base.origin) return target.href
  } catch {
    // Unparseable: fall through to the base URL.
  }
  return baseUrl
}

/**
 * The default `session` callback: the user's name, email and image, and the expiry as an ISO
 * string (a database session's is a `Date`) — nothing else of the stored user or session. A
 * refused provider refresh (`error: "RefreshTokenError"`) is kept.
 */
function defaultSession({ session }: SessionCallbackParams): Session {
  const { user, expires, error } = session as {
    user?: User
    expires: Date | string
    error?: string
  }
  return {
    user: { name: user?.name, email: user?.email, image: user?.image },
    expires: expires instanceof Date ? expires.toISOString() : expires,
    ...(error === undefined ? {} : { error }),
  }
}

/** The default callbacks. */
export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  jwt: ({ token }) => token,
  session: defaultSession,
}

/** Session lifetime, in seconds. */
export const DEFAULT_SESSION_MAX_AGE = 30 * 24 * 60 * 60
/** How often the session is refreshed, in seconds. */
export const DEFAULT_SESSION_UPDATE_AGE = 24 * 60 * 60
/** The path Latch answers under. */
export const DEFAULT_BASE_PATH = "/auth"
