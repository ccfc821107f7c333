/**
 * `watchSessions` over Redis pub/sub: one subscriber connection per watch (a `duplicate()` of
 * the app's client), which hands the listener every change published on the channel.
 *
 * Pub/sub is fire and forget: a message published while a subscriber is disconnected is lost
 * for it. So the watch proves, rather than assumes, that it hears the channel: every
 * `heartbeatMs` it publishes a ping of its own on the channel, and it is live only while its
 * pings come back. `live(false)` the moment the subscriber connection reports an error, a
 * reconnection or its end, when a ping is missing for two heartbeats (a connection gone
 * silent), or when this store failed to publish a change; `live(true)` only when a ping sent
 * after that comes back — node-redis subscribes again by itself when it reconnects, and the
 * ping shows it has. Timers are `unref()`ed: a watch keeps no process alive.
 */
import type { SessionChangeListener, SessionWatch } from "@latch/core/adapters"
import {
  messageOf,
  RedisStoreError,
  withTimeout,
  type RedisClient,
  type SubscriberClient,
} from "./client.js"
import { decode, encode } from "./messages.js"
import type { Publisher } from "./publisher.js"

export interface WatchOptions {
  client: RedisClient
  publisher: Publisher
  heartbeatMs: number
  timeoutMs: number
}

/** Calls the listener without letting it throw into the client's event handling. */
function call(fn: () => void): void {
  try {
    fn()
  } catch (error) {
    queueMicrotask(() => {
      throw error
    })
  }
}

const DROP_EVENTS = ["error", "reconnecting", "end"] as const

export async function watchSessions(
  options: WatchOptions,
  listener: SessionChangeListener,
): Promise<SessionWatch> {
  const { client, publisher, heartbeatMs, timeoutMs } = options
  const channel = publisher.channel
  const id = crypto.randomUUID()
  let closed = false
  let live = false
  /** The number of the last ping sent, and the first one that may make the watch live. */
  let sent = 0
  let from = 1
  let lastPong = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  let firstPong: (() => void) | undefined

  const setLive = (value: boolean) => {
    if (closed || live === value) return
    live = value
    call(() => listener.live(value))
  }
  const doubter = {
    doubt() {
      // Only a ping sent from now on shows that what follows is heard.
      from = sent + 1
      setLive(false)
    },
  }

  const onMessage = (payload: string) => {
    if (closed) return
    const message = decode(payload)
    if (!message) return
    if ("ping" in message) {
      const [owner, number] = message.ping.split(":")
      if (owner !== id || Number(number) < from) return
      lastPong = Date.now()
      setLive(true)
      firstPong?.()
      return
    }
    if ("reset" in message) {
      // Changes were lost somewhere: whatever was kept is in doubt, and what follows is heard.
      if (!live) return
      call(() => listener.live(false))
      if (!closed && live) call(() => listener.live(true))
      return
    }
    if (live) call(() => listener.changed(message))
  }

  const ping = () => {
    const number = ++sent
    publisher.ping(encode({ ping: `${id}:${number}` })).catch(() => {
      // Redis away, or a reset still owed: the missing pong says so in time.
    })
  }

  const beat = () => {
    if (closed) return
    if (live && Date.now() - lastPong > 2 * heartbeatMs) doubter.doubt()
    ping()
    timer = setTimeout(beat, heartbeatMs)
    timer.unref?.()
  }

  const subscriber = client.duplicate() as SubscriberClient
  const onDrop = () => doubter.doubt()
  const onReady = () => {
    if (!closed) ping()
  }
  for (const event of DROP_EVENTS) subscriber.on(event, onDrop)
  subscriber.on("ready", onReady)

  const stop = () => {
    closed = true
    clearTimeout(timer)
    publisher.watches.delete(doubter)
    // The error listener stays: a client that emits `error` with none crashes Node.
    subscriber.removeListener?.("ready", onReady)
    try {
      if (typeof subscriber.destroy === "function") subscriber.destroy()
      else void subscriber.disconnect?.().catch(() => {})
    } catch {
      // Closed already.
    }
  }

  try {
    await withTimeout(subscriber.connect(), timeoutMs, "connecting the subscriber")
    await withTimeout(
      subscriber.subscribe(channel, (message) => onMessage(message)),
      timeoutMs,
      "SUBSCRIBE",
    )
    publisher.watches.add(doubter)
    const heard = new Promise<void>((resolve) => (firstPong = resolve))
    beat()
    await withTimeout(heard, Math.max(timeoutMs, 2 * heartbeatMs), "the first heartbeat")
    firstPong = undefined
  } catch (error) {
    stop()
    throw error instanceof RedisStoreError
      ? error
      : new RedisStoreError(`watchSessions failed: ${messageOf(error)}`, { cause: error })
  }

  return {
    close() {
      if (closed) return
      setLive(false)
      stop()
    },
  }
}
