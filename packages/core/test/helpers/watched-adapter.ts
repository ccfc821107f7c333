/**
 * Instances of an app sharing one in-memory database, each with its own adapter object (so its
 * own session cache), and the database reporting every change to sessions and users to every
 * watcher — what `@latch/pg-adapter` does with triggers and `LISTEN`/`NOTIFY`, in one process.
 * `deliver = false` stands for a dropped connection: changes are then lost, and the test says
 * when the watchers hear `live(false)` and `live(true)`.
 */
import type { AdapterSession, SessionChangeListener } from "../../src/adapters.js"
import { memoryAdapter, type MemoryAdapter } from "./memory-adapter.js"

export interface SharedDatabase {
  /** The tables. */
  store: MemoryAdapter
  /** A new instance's adapter: its own object over the same tables. */
  instance(): WatchedAdapter
  /** Every `getSessionAndUser` made, by any instance. */
  reads: string[]
  /** Whether changes reach the watchers (a live connection). */
  deliver: boolean
  /** Tells every watcher whether changes are being delivered. */
  setLive(live: boolean): void
  /** Reports a change as the database's triggers would (an admin's hand-written SQL). */
  notify(change: { sessionToken: string } | { userId: string }): void
}

export type WatchedAdapter = MemoryAdapter &
  Required<
    Pick<
      MemoryAdapter,
      | "getSessionAndUser"
      | "createSession"
      | "updateSession"
      | "deleteSession"
      | "deleteSessionsByUserId"
      | "deleteSessionById"
      | "updateUser"
      | "deleteUser"
      | "watchSessions"
    >
  >

export function sharedDatabase(): SharedDatabase {
  const store = memoryAdapter()
  const listeners = new Set<SessionChangeListener>()
  const reads: string[] = []
  const db: SharedDatabase = {
    store,
    reads,
    deliver: true,
    setLive(live) {
      for (const listener of listeners) listener.live(live)
    },
    notify(change) {
      if (!db.deliver) return
      for (const listener of listeners) listener.changed(change)
    },
    instance() {
      const base = { ...store }
      const sessionsOf = (userId: string) =>
        [...store.sessions.values()].filter((session) => session.userId === userId)
      const adapter: WatchedAdapter = {
        ...base,
        getSessionAndUser(sessionToken) {
          reads.push(sessionToken)
          return store.getSessionAndUser!(sessionToken)
        },
        createSession(session) {
          return store.createSession!({ id: crypto.randomUUID(), ...session })
        },
        updateSession(session) {
          const updated = store.updateSession!(session)
          db.notify({ sessionToken: session.sessionToken })
          return updated
        },
        deleteSession(sessionToken) {
          const deleted = store.deleteSession!(sessionToken)
          if (deleted) db.notify({ sessionToken })
          return deleted
        },
        deleteSessionsByUserId(userId) {
          const doomed = sessionsOf(userId)
          const count = store.deleteSessionsByUserId!(userId)
          for (const session of doomed) db.notify({ sessionToken: session.sessionToken })
          return count
        },
        deleteSessionById(userId, id) {
          const found = sessionsOf(userId).find((session) => session.id === id)
          if (!found) return null
          store.sessions.delete(found.sessionToken)
          db.notify({ sessionToken: found.sessionToken })
          return found as AdapterSession
        },
        updateUser(user) {
          const updated = store.updateUser!(user)
          db.notify({ userId: user.id })
          return updated
        },
        deleteUser(id) {
          const doomed = sessionsOf(id)
          const deleted = store.deleteUser!(id)
          for (const session of doomed) db.notify({ sessionToken: session.sessionToken })
          db.notify({ userId: id })
          return deleted
        },
        watchSessions(listener) {
          listeners.add(listener)
          // Listening at once, as an in-process database is.
          queueMicrotask(() => listener.live(true))
          return { close: () => void listeners.delete(listener) }
        },
      }
      return adapter
    },
  }
  return db
}
