/**
 * A throwaway Redis for the tests (Debian's `redis-server` on 127.0.0.1, no persistence, stopped
 * and started again on the same port when a test needs Redis to go away), from the workspace's
 * shared `latch-test-servers`.
 */
export { ensureRedisServer, startRedis, type RedisServer } from "latch-test-servers"
