/**
 * PostgreSQL through Drizzle (`drizzle-orm/node-postgres`, `drizzle-orm/pglite`, and the other
 * PostgreSQL drivers): the database's clock is `now()`, groups run in a transaction, and the
 * session watch listens to the triggers of triggers.ts through `@latch/pg-adapter`'s watch, on
 * the driver's own client (a `pg.Pool` or a PGlite), or on the `pg.Pool` given as `listen` when
 * the driver's client is another (postgres.js has a listening API of its own, which that watch,
 * with its heartbeat and its `live(false)` while a connection is in doubt, does not speak).
 */
import type { SessionChangeListener, SessionWatch } from "@latch/core/adapters"
import { PostgresAdapter, type WatchOptions } from "@latch/pg-adapter"
import { eq, sql } from "drizzle-orm"
import type { Dialect, Group } from "../dialect.js"
import { DrizzleAdapterError } from "../errors.js"
import { resolveTables, type DrizzleAdapterTables } from "../tables.js"
import * as schema from "./schema.js"
import { countTriggersSql, TRIGGERS } from "./triggers.js"

interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>
}

/** The clients whose notifications pg-adapter's watch can hear: a PGlite, or a `pg.Pool` (one of
 * whose connections it keeps for `LISTEN`). A `pg.Client` cannot be given over to listening,
 * and postgres.js has a listening API of its own. */
function listeningClient(client: unknown): Queryable | undefined {
  const c = client as Record<string, unknown> | undefined
  if (!c || typeof c.query !== "function") return undefined
  const pglite = typeof c.listen === "function" && typeof c.exec === "function"
  const pool = typeof c.connect === "function" && "totalCount" in c
  return pglite || pool ? (c as unknown as Queryable) : undefined
}

export function pgDialect(
  db: any,
  given: DrizzleAdapterTables | undefined,
  { watch, listen }: { watch?: WatchOptions | undefined; listen?: unknown },
): Dialect {
  const tables = resolveTables(schema, given)
  const client = listeningClient(listen ?? db.$client)
  if (listen !== undefined && !client) {
    throw new TypeError(
      "@latch/drizzle-adapter: the listen option takes a pg.Pool (new pg.Pool({ connectionString })) " +
        "on the same database, one of whose connections the session watch keeps for LISTEN",
    )
  }

  async function watchSessions(listener: SessionChangeListener): Promise<SessionWatch> {
    const { rows } = await client!.query(countTriggersSql(given)).catch((error: unknown) => {
      throw new DrizzleAdapterError("watchSessions", error)
    })
    const count = Number((rows[0] as { count: number } | undefined)?.count ?? 0)
    if (count < Object.keys(TRIGGERS).length) {
      throw new DrizzleAdapterError(
        "watchSessions",
        new Error(
          "the session and user tables have no change triggers (or those of an earlier " +
            "version, which put raw session tokens on the channel), so the session cache would " +
            "miss revocations: run installSessionTriggers(db) (or add sessionTriggersSql() " +
            "to a custom Drizzle Kit migration), or turn the session cache off",
        ),
      )
    }
    return PostgresAdapter(client!, watch ? { watch } : {}).watchSessions(listener)
  }

  return {
    name: "postgresql",
    tables,
    now: sql`now()`,
    async atomic(group: Group) {
      return db.transaction(async (tx: any) => {
        const results: unknown[][] = []
        for (const query of group(tx)) results.push(await query)
        return results
      })
    },
    lockUser(tx, userId) {
      // `for no key update` does not hold up writes that only reference the user (a session).
      return [
        tx
          .select({ id: tables.users.id })
          .from(tables.users)
          .where(eq(tables.users.id, userId))
          .for("no key update"),
      ]
    },
    inProcessChanges: undefined,
    ...(client ? { watchSessions } : {}),
  }
}
