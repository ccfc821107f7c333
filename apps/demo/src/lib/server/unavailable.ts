// The database down, in the demo's own code: a page that reads the database itself (the
// profile's passkeys and sessions) answers 503 with Retry-After, as `locals.auth()` does, rather
// than SvelteKit's 500. Copy it if your pages call the adapter directly.
import { DrizzleAdapterError } from "@latch/drizzle-adapter"
import { PostgresAdapterError } from "@latch/pg-adapter"
import { error, type RequestEvent } from "@sveltejs/kit"

/** Seconds to wait before trying again: a database restart takes a few seconds. */
const RETRY_AFTER_SECONDS = 5

/** Whether the error is the database failing (through Latch, or from the adapter directly). */
function isDatabaseFailure(cause: unknown): boolean {
  return (
    cause instanceof PostgresAdapterError ||
    cause instanceof DrizzleAdapterError ||
    (cause instanceof Error && (cause as Error & { type?: unknown }).type === "AdapterError")
  )
}

/** Runs `read`; the database failing becomes a 503 with `Retry-After` (and a line in the log). */
export async function fromDatabase<T>(event: RequestEvent, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (cause) {
    if (!isDatabaseFailure(cause)) throw cause
    console.error(`[demo] the database did not answer on ${event.url.pathname}:`, String(cause))
    try {
      event.setHeaders({ "retry-after": String(RETRY_AFTER_SECONDS) })
    } catch {
      // Set already, by `locals.auth()` in the same request.
    }
    error(503, "The database did not answer. Try again in a few seconds.")
  }
}
