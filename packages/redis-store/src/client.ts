/**
 * The part of a node-redis client (`redis` 5 or 6) the store uses, and how it calls it. Commands go
 * through `sendCommand` (plain RESP arguments, the same on Redis and Valkey); pub/sub needs a
 * connection of its own, made with `duplicate()`.
 *
 * Every command has a deadline (`commandTimeoutMs`): a node-redis client queues commands while
 * it is disconnected, and a request must not hang for as long as Redis is away. A command that
 * timed out may still run once the client reconnects (it was queued): for a counter, that is
 * one count more, never one less.
 */

/** A node-redis client, as `createClient()` returns it (connected, or connecting). */
export interface RedisClient {
  sendCommand(args: ReadonlyArray<string>): Promise<unknown>
  duplicate(): unknown
}

/** The subscriber connection `duplicate()` gives: node-redis's pub/sub and events. */
export interface SubscriberClient {
  connect(): Promise<unknown>
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>
  on(event: string, listener: (...args: any[]) => void): unknown
  removeListener?(event: string, listener: (...args: any[]) => void): unknown
  destroy?(): void
  disconnect?(): Promise<void>
  isReady?: boolean
}

/** A failure of the store: Redis unreachable, too slow, or answering an error. */
export class RedisStoreError extends Error {
  override name = "RedisStoreError"
  constructor(message: string, options?: { cause?: unknown }) {
    super(`@latch/redis-store: ${message}`, options)
  }
}

/** `promise`, or a `RedisStoreError` after `ms` milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisStoreError(`${what}: no answer from Redis within ${ms} ms`)),
      ms,
    )
    timer.unref?.()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Checks that `client` looks like a node-redis client, with a message that says what to pass. */
export function assertClient(client: unknown): asserts client is RedisClient {
  const candidate = client as Partial<RedisClient> | null | undefined
  if (typeof candidate?.sendCommand !== "function" || typeof candidate.duplicate !== "function") {
    throw new TypeError(
      "@latch/redis-store: RedisStore(client) needs a node-redis client " +
        '(`createClient()` of the "redis" package, version 5 or 6): it has no sendCommand/duplicate',
    )
  }
}

/** Runs one command under the deadline; its failure is a `RedisStoreError` naming it. */
export async function command(
  client: RedisClient,
  args: string[],
  timeoutMs: number,
): Promise<unknown> {
  try {
    return await withTimeout(client.sendCommand(args), timeoutMs, args[0]!)
  } catch (error) {
    if (error instanceof RedisStoreError) throw error
    throw new RedisStoreError(`${args[0]} failed: ${messageOf(error)}`, { cause: error })
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
