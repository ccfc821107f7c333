/** Default callbacks and options; nothing else lives here. */
import type { CallbacksOptions } from "../types.js"

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

/** The default callbacks. */
export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  jwt: ({ token }) => token,
  // The session handed to this callback already holds only name, email and image.
  session: ({ session }) => session,
}

/** Session lifetime, in seconds. */
export const DEFAULT_SESSION_MAX_AGE = 30 * 24 * 60 * 60
/** How often the session is refreshed, in seconds. */
export const DEFAULT_SESSION_UPDATE_AGE = 24 * 60 * 60
/** The path Latch answers under. */
export const DEFAULT_BASE_PATH = "/auth"
