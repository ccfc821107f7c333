/**
 * Security keys as a second factor through `Auth` with the Drizzle adapter, on PostgreSQL
 * (PGlite) and SQLite (libsql): the core scenario (`security-key-scenario.ts`) with the
 * `secondFactor` column of each dialect's schema, on both session strategies. (The adapter's
 * storage of the field on every database is `@latch/adapter-test`'s, in conformance.test.ts.)
 */
import { afterEach, beforeEach, describe, it } from "vitest"
import { keyConfig, securityKeyScenario } from "../../core/test/helpers/security-key-scenario.js"
import { DrizzleAdapter } from "../src/index.js"
import { createTables, openLibsql, openPGlite, type TestDatabase } from "./databases.js"

describe.each([
  { name: "PostgreSQL (PGlite)", open: openPGlite },
  { name: "SQLite (libsql, local file)", open: openLibsql },
])("security keys as a second factor on $name", ({ open }) => {
  // Opened and given its tables in a hook: the slow part (a PGlite start, Drizzle Kit's
  // migration), under the hooks' longer timeout.
  let database: TestDatabase
  beforeEach(async () => {
    database = await open()
    await createTables(database)
  })
  afterEach(() => database.close())

  it.each(["jwt", "database"] as const)(
    "adds, asks for, refuses and removes a key (%s)",
    (strategy) =>
      securityKeyScenario(
        keyConfig(DrizzleAdapter(database.db, undefined, database.options), strategy),
      ),
    // A whole life of a key, many requests: on PGlite under a loaded machine, more than 20 s.
    60_000,
  )
})
