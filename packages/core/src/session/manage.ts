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

/** What to do when the adapter has no such method: Auth.js's adapters have neither. */
const extraMethodHint = (method: string) =>
  `Auth.js's adapters do not have it. Add \`${method}\` to your adapter (spread it and add the method, querying your sessions table by user id), or use @latch/pg-adapter`

/**
 * The user's database sessions (one per signed-in browser or device).
 *
 * @throws `MissingAdapterMethods` when the adapter has no `listSessionsByUserId`, as Auth.js's
 *   adapters do not: the message says how to add it.
 *
 * @example
 * ```ts
 * const sessions = await listSessions(config, session.user.id)
 * ```
 */
export async function listSessions(config: AuthConfig, userId: string): Promise<AdapterSession[]> {
  const adapter = requireMethods(
    adapterOf(config),
    ["listSessionsByUserId"],
    "listSessions",
    extraMethodHint("listSessionsByUserId"),
  )
  return callAdapter("listSessionsByUserId", () => adapter.listSessionsByUserId(userId))
}

/**
 * Signs the user out everywhere: deletes every database session of theirs. Returns how many
 * were deleted. Each browser finds its cookie refers to nothing on its next request.
 *
 * @throws `MissingAdapterMethods` when the adapter has no `deleteSessionsByUserId`, as Auth.js's
 *   adapters do not: nothing is deleted, rather than reporting a sign-out that did not happen.
 *
 * @example
 * ```ts
 * await revokeSessions(config, session.user.id)
 * ```
 */
export async function revokeSessions(config: AuthConfig, userId: string): Promise<number> {
  const adapter = requireMethods(
    adapterOf(config),
    ["deleteSessionsByUserId"],
    "revokeSessions",
    extraMethodHint("deleteSessionsByUserId"),
  )
  const count = await callAdapter("deleteSessionsByUserId", () =>
    adapter.deleteSessionsByUserId(userId),
  )
  return typeof count === "number" ? count : 0
}
