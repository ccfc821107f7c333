/**
 * What travels on the sessions channel, as JSON: a change (`{ sessionToken }`, `{ userId }`,
 * the shapes `SessionChange` has), `{ reset: true }` (changes may have been lost: drop
 * everything), or a watch's own heartbeat `{ ping }`. Anything else is ignored, so a message
 * published by hand in another shape does no harm.
 */
import type { SessionChange } from "@latch/core/adapters"

export type Message = SessionChange | { reset: true } | { ping: string }

export const encode = (message: Message) => JSON.stringify(message)

export function decode(payload: string): Message | undefined {
  let value: unknown
  try {
    value = JSON.parse(payload)
  } catch {
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  const { sessionToken, userId, reset, ping } = value as Record<string, unknown>
  if (typeof sessionToken === "string") return { sessionToken }
  if (typeof userId === "string") return { userId }
  if (reset === true) return { reset: true }
  if (typeof ping === "string") return { ping }
  return undefined
}
