/**
 * The counter scripts. A script runs atomically on the server, so the increment and the first
 * expiry are one step (no window in which a counter exists without its expiry), and the read
 * gives the count and the expiry of the same moment. Only `INCR`, `GET`, `PTTL` and
 * `PEXPIREAT` are used: Redis 6.2 and later, and Valkey, have them all.
 *
 * They are called by their SHA-1 (`EVALSHA`), and sent whole (`EVAL`) only when the server
 * does not know them yet (a new server, or one restarted or flushed since).
 */
import { createHash } from "node:crypto"
import { command, RedisStoreError, type RedisClient } from "./client.js"

/**
 * +1; a new counter (or one left without an expiry, which nothing here writes) expires at
 * ARGV[1] milliseconds. An expiry already past deletes the key at once: the next call starts
 * again at 1, as a window that has ended should.
 */
export const INCREMENT = `local n = redis.call("INCR", KEYS[1])
if n == 1 or redis.call("PTTL", KEYS[1]) == -1 then
  redis.call("PEXPIREAT", KEYS[1], ARGV[1])
end
return n`

/** The count and the milliseconds it has left, or nil; changes nothing. */
export const READ = `local n = redis.call("GET", KEYS[1])
if not n then return nil end
return {n, redis.call("PTTL", KEYS[1])}`

export interface Script {
  source: string
  sha: string
}

export const script = (source: string): Script => ({
  source,
  sha: createHash("sha1").update(source).digest("hex"),
})

const isNoScript = (error: unknown) =>
  error instanceof RedisStoreError && /NOSCRIPT/.test(String((error.cause as Error)?.message))

/** Runs `script` on one key: by its SHA-1, or whole when the server has not seen it. */
export async function runScript(
  client: RedisClient,
  { source, sha }: Script,
  key: string,
  args: string[],
  timeoutMs: number,
): Promise<unknown> {
  try {
    return await command(client, ["EVALSHA", sha, "1", key, ...args], timeoutMs)
  } catch (error) {
    if (!isNoScript(error)) throw error
    return command(client, ["EVAL", source, "1", key, ...args], timeoutMs)
  }
}
