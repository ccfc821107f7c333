/**
 * MySQL and MariaDB through Drizzle's `mysql2` driver. The clock is `utc_timestamp(3)` (the
 * counters' `datetime` columns hold UTC, as Drizzle writes them), writes are the ones of
 * methods.ts, and there is no session watch: MySQL tells no connection what another changed, so
 * the session cache needs another channel (`@latch/redis-store`'s `withRedisSessionChanges`).
 *
 * The driver's client must be a pool: Drizzle runs a transaction on one of its connections, while
 * on a single connection concurrent requests' transactions would mix their statements.
 */
import { sql } from "drizzle-orm"
import type { Dialect, Group } from "../dialect.js"
import { resolveTables, type DrizzleAdapterTables } from "../tables.js"
import { mysqlMethods } from "./methods.js"
import * as schema from "./schema.js"

/** A mysql2 pool (callback or promise API) rather than one connection. */
function isPool(client: unknown): boolean {
  const c = client as Record<string, unknown> | undefined
  return !!c && typeof c.getConnection === "function"
}

export function mysqlDialect(db: any, given: DrizzleAdapterTables | undefined): Dialect {
  if (!isPool(db.$client)) {
    throw new TypeError(
      "@latch/drizzle-adapter: on MySQL, DrizzleAdapter(db) needs drizzle(pool) with a mysql2 " +
        "pool (mysql.createPool(…)), not one connection: the adapter's transactions would mix " +
        "with concurrent requests' statements on a single connection",
    )
  }
  const tables = resolveTables(schema, given)
  const now = sql`utc_timestamp(3)`
  return {
    name: "mysql",
    tables,
    now,
    atomic: (group: Group) =>
      db.transaction(async (tx: any) => {
        const results: unknown[][] = []
        for (const query of group(tx)) results.push(await query)
        return results
      }),
    lockUser: () => [],
    inProcessChanges: undefined,
    methods: () => mysqlMethods(db, tables, now),
  }
}
