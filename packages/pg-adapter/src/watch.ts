/**
 * `watchSessions`: hands the listener every change the triggers of `migrate` report on the
 * sessions channel (see triggers.ts), and tells it whether it can trust that none is missed.
 *
 * - PGlite delivers notifications in process (`listen`); it never drops, so the watch is live
 *   from start to close.
 * - A `pg.Pool` gives the watch one of its connections for good, since `LISTEN` belongs to a
 *   connection. `NOTIFY` is fire and forget: what is sent while no connection listens is lost.
 *   So the listener hears `live(false)` the moment the connection is in doubt — it failed, it
 *   ended, or a heartbeat query went unanswered — and `live(true)` only once a new connection
 *   listens again. Reconnection backs off from 100 ms to 2 s.
 * - A plain `pg.Client` is refused: it is the app's only connection, which cannot be given over
 *   to listening, and nothing reopens it when it drops.
 *
 * Every timer, and the listening connection's socket, is `unref()`ed: a watch never keeps a
 * process alive. `pool.end()` ends it too (at
 * its next heartbeat, which sees the pool ending and gives its connection back), so an app that
 * ends its pool at shutdown needs nothing else.
 */
import type { SessionChange, SessionChangeListener, SessionWatch } from "@latch/core/adapters"
import { sessionsChannel } from "./channel.js"
import {
  PostgresAdapterError,
  quoteIdentifier,
  type PostgresAdapterOptions,
  type Queryable,
} from "./client.js"

const DEFAULT_HEARTBEAT_MS = 1_000
const FIRST_RETRY_MS = 100
const MAX_RETRY_MS = 2_000

/** PGlite: `listen` resolves to the function that stops listening. */
interface Listenable {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>
}

/** The part of a `pg.Pool` the watch uses. */
interface Pool {
  connect(): Promise<PoolClient>
  totalCount: number
  ending?: boolean
}

/** A client checked out of a `pg.Pool`: `release(error)` destroys it instead of returning it. */
interface PoolClient extends Queryable {
  on(event: string, listener: (...args: any[]) => void): unknown
  removeListener(event: string, listener: (...args: any[]) => void): unknown
  release(error?: Error | boolean): void
}

/** The socket of a pooled pg client (`client.connection.stream`), where there is one. */
const socketOf = (client: PoolClient) =>
  (client as PoolClient & { connection?: { stream?: { ref?(): void; unref?(): void } } }).connection
    ?.stream

/** What `pg_notify` sent: a change, the word that a table was truncated, or nothing we know. */
type Message = SessionChange | "truncated" | undefined

/** Reads a payload of the triggers; anything else on the channel is ignored. */
function toMessage(payload: string | undefined): Message {
  let value: unknown
  try {
    value = JSON.parse(payload ?? "")
  } catch {
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  const { sessionToken, userId, truncated } = value as Record<string, unknown>
  if (typeof sessionToken === "string") return { sessionToken }
  if (typeof userId === "string") return { userId }
  if (typeof truncated === "string") return "truncated"
  return undefined
}

/**
 * Calls the listener without letting it throw into the driver (whose state a throw in its
 * event handler would corrupt); its error is thrown again on its own, as an uncaught one.
 */
function call(fn: () => void): void {
  try {
    fn()
  } catch (error) {
    queueMicrotask(() => {
      throw error
    })
  }
}

/** Delivers payloads to `listener` until `isOpen()` says the watch is closed. */
function deliverer(listener: SessionChangeListener, isOpen: () => boolean) {
  return (payload: string | undefined) => {
    const message = toMessage(payload)
    if (message === undefined || !isOpen()) return
    if (message === "truncated") {
      // Every session may have ended, and a change names one session or one user: say that
      // changes were missed, which makes the listener drop everything it kept.
      call(() => listener.live(false))
      if (isOpen()) call(() => listener.live(true))
    } else {
      call(() => listener.changed(message))
    }
  }
}

/** `promise`, or a rejection after `ms` milliseconds. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
    timer.unref?.()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

async function watchPGlite(
  db: Listenable,
  channel: string,
  listener: SessionChangeListener,
): Promise<SessionWatch> {
  let open = true
  // PGlite puts the name into `LISTEN` as it is: quote it.
  const unlisten = await db.listen(
    quoteIdentifier(channel),
    deliverer(listener, () => open),
  )
  call(() => listener.live(true))
  return {
    async close() {
      if (!open) return
      open = false
      await unlisten().catch(() => {}) // the database may be closed already
    },
  }
}

/** A checked-out connection; `gone` once it was released or destroyed. */
interface Connection {
  client: PoolClient
  gone: boolean
  /** Its `error` and `end` listener. */
  onDrop: (error?: unknown) => void
}

async function watchPool(
  pool: Pool,
  channel: string,
  listener: SessionChangeListener,
  heartbeatMs: number,
): Promise<SessionWatch> {
  const timeoutMs = 2 * heartbeatMs
  let closed = false
  let current: Connection | undefined
  let attempt: Promise<void> | undefined
  let live = false
  let retryMs = FIRST_RETRY_MS
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let heartbeatTimer: ReturnType<typeof setTimeout> | undefined
  const onNotification = (message: { channel?: string; payload?: string }) => {
    if (message.channel === channel) deliver(message.payload)
  }
  const deliver = deliverer(listener, () => !closed)

  function setLive(value: boolean) {
    if (closed || live === value) return
    live = value
    call(() => listener.live(value))
  }

  /** Gives the connection back: to the pool when healthy, else destroyed (`error`). */
  function release(connection: Connection, error?: unknown) {
    if (connection.gone) return
    connection.gone = true
    const { client, onDrop } = connection
    client.removeListener("notification", onNotification)
    if (error === undefined) {
      // Back in the pool it is someone else's; a destroyed one keeps its `error` listener, as
      // a client that emits `error` with no listener crashes Node.
      client.removeListener("error", onDrop)
      client.removeListener("end", onDrop)
      socketOf(client)?.ref?.()
      client.release()
    } else {
      client.release(error instanceof Error ? error : new Error(String(error)))
    }
  }

  /** The connection failed or is in doubt: say so at once, destroy it, listen again later. */
  function lost(connection: Connection, error: unknown) {
    release(connection, error)
    if (connection !== current) return // still connecting: `open` fails and says so
    current = undefined
    clearTimeout(heartbeatTimer)
    setLive(false)
    reconnectLater()
  }

  /** Checks out a connection, listens on it and makes it current; rejects on failure. */
  async function open(): Promise<void> {
    const client = await pool.connect()
    const connection: Connection = {
      client,
      gone: false,
      onDrop: (error) => lost(connection, error ?? new Error("the listening connection ended")),
    }
    client.on("error", connection.onDrop)
    client.on("end", connection.onDrop)
    client.on("notification", onNotification)
    try {
      await withTimeout(client.query(`listen ${quoteIdentifier(channel)}`), timeoutMs, "LISTEN")
      if (connection.gone) throw new Error("the connection was lost during LISTEN")
    } catch (error) {
      release(connection, error)
      throw error
    }
    if (closed) {
      release(connection, new Error("watch closed"))
      return
    }
    current = connection
    retryMs = FIRST_RETRY_MS
    // Listening, the socket keeps no process alive: an app that is done (its server closed on
    // SIGTERM) exits, though the watch holds this connection for good.
    socketOf(client)?.unref?.()
    setLive(true)
    heartbeat(connection)
  }

  function reconnectLater() {
    if (closed || retryTimer || pool.ending) return
    retryTimer = setTimeout(() => {
      retryTimer = undefined
      attempt = open().catch(() => {
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)
        reconnectLater()
      })
    }, retryMs)
    retryTimer.unref?.()
  }

  /** A connection can die without a word (a network gone silent): ask it something now and
   * then, and count no answer in time as a drop. */
  function heartbeat(connection: Connection) {
    heartbeatTimer = setTimeout(() => {
      // The app is ending the pool (`pool.end()`, at shutdown): let go of the connection, which
      // `end` would otherwise wait for forever, and stop.
      if (pool.ending) {
        setLive(false)
        closed = true
        current = undefined
        release(connection)
        return
      }
      withTimeout(connection.client.query("select 1"), timeoutMs, "heartbeat").then(
        () => {
          if (connection === current) heartbeat(connection)
        },
        (error: unknown) => lost(connection, error),
      )
    }, heartbeatMs)
    heartbeatTimer.unref?.()
  }

  attempt = open()
  try {
    await attempt
  } catch (error) {
    closed = true
    throw new PostgresAdapterError("watchSessions", error)
  }

  return {
    async close() {
      if (closed) return
      closed = true
      clearTimeout(retryTimer)
      clearTimeout(heartbeatTimer)
      // A connection being opened releases itself when it sees `closed`.
      await withTimeout(attempt ?? Promise.resolve(), timeoutMs, "connecting").catch(() => {})
      const connection = current
      current = undefined
      if (!connection || connection.gone) return
      connection.client.removeListener("notification", onNotification)
      try {
        await withTimeout(connection.client.query(`unlisten *`), timeoutMs, "UNLISTEN")
        release(connection)
      } catch (error) {
        release(connection, error)
      }
    },
  }
}

const isListenable = (client: Queryable): client is Queryable & Listenable =>
  typeof (client as Partial<Listenable>).listen === "function"

const isPool = (client: Queryable): client is Queryable & Pool =>
  typeof (client as Partial<Pool>).connect === "function" && "totalCount" in client

/**
 * Starts watching: resolves once listening (after `listener.live(true)`), rejects with a
 * `PostgresAdapterError` when the first connection or `LISTEN` fails.
 */
export async function watchSessions(
  client: Queryable,
  listener: SessionChangeListener,
  options: PostgresAdapterOptions = {},
): Promise<SessionWatch> {
  const channel = sessionsChannel(options)
  if (isListenable(client)) {
    try {
      return await watchPGlite(client, channel, listener)
    } catch (error) {
      throw new PostgresAdapterError("watchSessions", error)
    }
  }
  if (isPool(client)) {
    const heartbeatMs = options.watch?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    if (!(heartbeatMs > 0)) {
      throw new TypeError(`@latch/pg-adapter: "options.watch.heartbeatMs" must be positive`)
    }
    return watchPool(client, channel, listener, heartbeatMs)
  }
  const reason =
    typeof (client as { connect?: unknown }).connect === "function"
      ? "a pg.Client is a single connection, which cannot be given over to LISTEN and is not " +
        "reopened when it drops; create the adapter on a pg.Pool (the watch keeps one of its " +
        "connections)"
      : "the client is neither a pg.Pool nor a PGlite (nothing to LISTEN with)"
  throw new PostgresAdapterError("watchSessions", new Error(reason))
}
