/**
 * The README's configuration example, as an app writes it: type-checked by `typecheck`, so the
 * README cannot show a configuration that does not compile. Only the adapter is declared rather
 * than made (any Latch or Auth.js adapter).
 */
import type { AuthConfig } from "@latch/core"
import type { Adapter } from "@latch/core/adapters"
import Credentials from "@latch/core/providers/credentials"
import { createClient } from "redis"
import { RedisStore, withRedisSessionChanges } from "@latch/redis-store"

declare const adapter: Adapter

// --- README example ---
const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
redis.on("error", (error) => console.error("redis:", error))
await redis.connect()

const store = RedisStore(redis, { prefix: "myapp:" })

export const config = {
  adapter: withRedisSessionChanges(adapter, store),
  counterStore: store.counters,
  session: { strategy: "database", cache: true },
  providers: [Credentials({ authorize: () => null })],
} satisfies AuthConfig
// --- end ---
