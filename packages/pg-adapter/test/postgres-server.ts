/**
 * A throwaway PostgreSQL server for the tests (Debian's `postgresql` package, a cluster per test
 * file on 127.0.0.1), from the workspace's shared `latch-test-servers`. `ensurePostgres()` runs
 * once from the vitest global setup; nothing is skipped: when PostgreSQL cannot be had, it throws.
 */
export {
  ensurePostgres,
  findPostgresBin,
  startPostgres,
  type PostgresServer,
} from "latch-test-servers"
