/**
 * In-process session change reports, for the dialects whose database cannot tell other
 * connections what changed (SQLite): the adapter reports its own writes to sessions and users to
 * every watch opened on the same database client. Correct only when every write goes through
 * adapters in this one process, which is what the README says of SQLite's session cache.
 */
import type { SessionChange, SessionChangeListener, SessionWatch } from "@latch/core/adapters"

const listenersByClient = new WeakMap<object, Set<SessionChangeListener>>()

/** Calls a listener without letting its error break the adapter's write that reported. */
function call(fn: () => void): void {
  try {
    fn()
  } catch (error) {
    queueMicrotask(() => {
      throw error
    })
  }
}

/** Reports a change to the watches of `client`. */
export function report(client: object, change: SessionChange): void {
  const listeners = listenersByClient.get(client)
  if (!listeners) return
  for (const listener of listeners) call(() => listener.changed(change))
}

/** A watch of the changes reported on `client`: live at once, and never in doubt. */
export function watchInProcess(client: object, listener: SessionChangeListener): SessionWatch {
  let listeners = listenersByClient.get(client)
  if (!listeners) listenersByClient.set(client, (listeners = new Set()))
  // The listener is wrapped so that one listener watching twice gets two separate watches.
  const own: SessionChangeListener = {
    changed: (change) => listener.changed(change),
    live: (live) => listener.live(live),
  }
  listeners.add(own)
  call(() => listener.live(true))
  return {
    close() {
      listeners.delete(own)
    },
  }
}
