import { sql } from "drizzle-orm"
import { is } from "drizzle-orm"
import { PgDatabase } from "drizzle-orm/pg-core"
import { DrizzleAdapterError } from "../errors.js"
import type { DrizzleAdapterTables } from "../tables.js"
import { sessionTriggersSql } from "./triggers.js"

/**
 * Installs (or replaces) the PostgreSQL triggers that report session and user changes to the
 * session cache (`sessionTriggersSql`), in one transaction; safe to run at every start. Takes the
 * same custom tables as `DrizzleAdapter`.
 */
export async function installSessionTriggers(
  db: unknown,
  tables: DrizzleAdapterTables = {},
): Promise<void> {
  if (!is(db, PgDatabase)) {
    throw new TypeError(
      "@latch/drizzle-adapter: installSessionTriggers is for PostgreSQL: SQLite's session cache " +
        "needs no triggers",
    )
  }
  const text = sessionTriggersSql(tables)
  try {
    await (db as PgDatabase<any>).transaction(async (tx) => {
      // One statement per call: node-postgres takes several without parameters, other drivers
      // (postgres.js with prepared statements) may not.
      for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement))
    })
  } catch (error) {
    throw new DrizzleAdapterError("installSessionTriggers", error)
  }
}

/** Splits the triggers' SQL at the semicolons that end a line outside a `$latch$` body. */
function splitStatements(text: string): string[] {
  const statements: string[] = []
  let current = ""
  let inBody = false
  for (const line of text.split("\n")) {
    current += `${line}\n`
    if ((line.match(/\$latch\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody
    if (!inBody && line.trimEnd().endsWith(";")) {
      statements.push(current.trim())
      current = ""
    }
  }
  if (current.trim()) statements.push(current.trim())
  return statements
}
