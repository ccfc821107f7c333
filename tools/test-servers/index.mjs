// Throwaway database servers from Debian's packages for the tests and the benchmarks: each on a
// free port of 127.0.0.1, in a temporary directory, stopped and removed by `destroy()` or, should
// the process end first, at its exit.
export { ensurePostgres, findPostgresBin, startPostgres } from "./lib/postgres.mjs"
export { findMariadb, startMariadb } from "./lib/mariadb.mjs"
export { ensureRedisServer, startRedis } from "./lib/redis.mjs"
