/**
 * "Where am I signed in?" and "sign out everywhere", for database sessions: thin, documented
 * wrappers over the adapter's optional `listSessionsByUserId` and `deleteSessionsByUserId`.
 */
import type { AdapterSession } from "../adapters.js"
import { resolveConfig } from "../config/resolve.js"
import { MissingAdapter } from "../errors.js"
import type { AuthConfig } from "../types.js"
import { callAdapter, requireMethods } from "./adapter-call.js"

function adapterOf(config: AuthConfig) {
  const resolved = resolveConfig(config)
  if (!resolved.adapter) throw new MissingAdapter("Listing and revoking sessions needs an adapter")
  return resolved.adapter
}

/**
 * The user's database sessions (one per signed-in browser or device).
 *
 * @example
 * ```ts
 * const sessions = await listSessions(config, session.user.id)
 * ```
 */
export async function listSessions(config: AuthConfig, userId: string): Promise<AdapterSession[]> {
  const adapter = requireMethods(adapterOf(config), ["listSessionsByUserId"], "listSessions")
  return callAdapter("listSessionsByUserId", () => adapter.listSessionsByUserId(userId))
}

/**
 * Signs the user out everywhere: deletes every database session of theirs. Returns how many
 * were deleted. Each browser finds its cookie refers to nothing on its next request.
 *
 * @example
 * ```ts
 * await revokeSessions(config, session.user.id)
 * ```
 */
export async function revokeSessions(config: AuthConfig, userId: string): Promise<number> {
  const adapter = requireMethods(adapterOf(config), ["deleteSessionsByUserId"], "revokeSessions")
  const count = await callAdapter("deleteSessionsByUserId", () =>
    adapter.deleteSessionsByUserId(userId),
  )
  return typeof count === "number" ? count : 0
}
