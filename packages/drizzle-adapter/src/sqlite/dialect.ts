/**
 * SQLite through Drizzle (better-sqlite3, libsql / Turso, bun:sqlite, Cloudflare D1…): the clock
 * is SQLite's own in milliseconds, groups run as one batch (libsql and D1, which run a batch as
 * one transaction — D1 refuses `BEGIN`, so a batch is its only all-or-nothing) or one synchronous
 * transaction (better-sqlite3, bun:sqlite), and the session watch is in-process: SQLite tells no
 * other connection what changed, so it is offered only for a local database, and is correct only
 * while one process writes it (README, "Session cache").
 */
import type { SessionChangeListener } from "@latch/core/adapters"
import { is, sql } from "drizzle-orm"
import { DrizzleD1Database } from "drizzle-orm/d1"
import { SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy"
import { watchInProcess } from "../changes.js"
import type { Dialect, Group } from "../dialect.js"
import { resolveTables, type DrizzleAdapterTables } from "../tables.js"
import * as schema from "./schema.js"

/** A database other processes reach over a network: libsql's `http`, `ws`… to Turso; D1,
 * which every isolate of a Worker (on every Cloudflare location) writes through its binding; or
 * any database behind `sqlite-proxy`, whose callback may send the queries anywhere. */
function isRemote(db: any): boolean {
  if (is(db, DrizzleD1Database) || is(db, SqliteRemoteDatabase)) return true
  const protocol = (db.$client as { protocol?: unknown } | undefined)?.protocol
  return typeof protocol === "string" && protocol !== "file"
}

/** `sqlite-proxy` without its batch callback has no all-or-nothing group: Drizzle's transaction
 * there sends `begin` through the callback, and concurrent requests' queries would fall into it. */
function checkProxy(db: any) {
  const session = db.session as Record<string, unknown> | undefined
  if (is(db, SqliteRemoteDatabase) && session && "batchCLient" in session && !session.batchCLient) {
    throw new TypeError(
      "@latch/drizzle-adapter: drizzle-orm/sqlite-proxy needs its batch callback, " +
        "drizzle(query, batch), running each batch in one transaction (README, node:sqlite)",
    )
  }
}

export function sqliteDialect(db: any, given: DrizzleAdapterTables | undefined): Dialect {
  checkProxy(db)
  const tables = resolveTables(schema, given)
  const client: object = db.$client ?? db
  const local = !isRemote(db)

  return {
    name: "sqlite",
    tables,
    now: sql`cast((julianday('now') - 2440587.5) * 86400000 as integer)`,
    async atomic(group: Group) {
      if (typeof db.batch === "function") {
        const queries = group(db)
        return queries.length ? ((await db.batch(queries)) as unknown[][]) : []
      }
      if (db.resultKind === "sync") {
        return db.transaction((tx: any) => group(tx).map((query) => query.all() as unknown[]))
      }
      return db.transaction(async (tx: any) => {
        const results: unknown[][] = []
        for (const query of group(tx)) results.push(await query)
        return results
      })
    },
    lockUser: () => [],
    inProcessChanges: local ? client : undefined,
    ...(local
      ? {
          watchSessions: async (listener: SessionChangeListener) =>
            watchInProcess(client, listener),
        }
      : {}),
  }
}
