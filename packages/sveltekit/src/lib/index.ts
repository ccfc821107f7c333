/**
 * `@latch/sveltekit`: Latch for SvelteKit.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@latch/sveltekit"
 * import Credentials from "@latch/sveltekit/providers/credentials"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ authorize })] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 * ```
 */
import type { RequestEvent } from "@sveltejs/kit"
import { createSignIn, createSignOut } from "./actions.js"
import { createHandle } from "./handle.js"
import type { Handle, SvelteKitAuthConfigInput } from "./types.js"

export type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./types.js"
export { isProtectedPath, protect } from "./protect.js"
export { getAccessToken } from "./access-token.js"
export { loadSession, type SessionLoadEvent } from "./load-session.js"
export { SESSION_DEPENDENCY } from "./session-key.js"
export {
  getUserSessions,
  revokeOtherSessions,
  revokeUserSession,
  type UserSession,
} from "./user-sessions.js"
export type { ProtectOptions, ProtectRule, RouteOfEvent } from "./protect.js"
export { customFetch } from "@latch/core"
export * from "@latch/core/errors"
export type * from "@latch/core/types"

/** What `SvelteKitAuth` returns. */
export interface SvelteKitAuthResult {
  /** The hook: answers `{basePath}/*`, sets `event.locals.auth()` for every other request. */
  handle: Handle
  /**
   * A form action that signs in with the form's `providerId`. `fields`, when given, replaces the
   * form (a remote `form` passes what it read; see `@latch/sveltekit/remote`).
   */
  signIn: (event: RequestEvent, fields?: Record<string, unknown>) => Promise<never>
  /** A form action that signs out; `fields` as for `signIn`. */
  signOut: (event: RequestEvent, fields?: Record<string, unknown>) => Promise<never>
}

/**
 * Sets Latch up for a SvelteKit app.
 *
 * @param config the configuration, or a function of the request event returning it (sync or
 *   async), e.g. to read a platform's environment per request
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInput): SvelteKitAuthResult {
  return {
    handle: createHandle(config),
    signIn: createSignIn(config),
    signOut: createSignOut(config),
  }
}
