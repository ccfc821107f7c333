export { RedisStore, RedisStoreError, type RedisStoreOptions } from "./store.js"
export { withRedisSessionChanges } from "./session-changes.js"
export { RATE_LIMIT_PREFIXES } from "./counters.js"
export type { RedisClient } from "./client.js"
