/**
 * Security keys as a second factor through `Auth` with the Drizzle adapter, on PostgreSQL
 * (PGlite) and SQLite (libsql): the core scenario (`security-key-scenario.ts`) with the
 * `secondFactor` column of each dialect's schema, on both session strategies. (The adapter's
 * storage of the field on every database is `@latch/adapter-test`'s, in conformance.test.ts.)
 */
import { afterEach, describe, it } from "vitest"
import { keyConfig, securityKeyScenario } from "../../core/test/helpers/security-key-scenario.js"
import { DrizzleAdapter } from "../src/index.js"
import { createTables, openLibsql, openPGlite, type TestDatabase } from "./databases.js"

const opened: TestDatabase[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

describe.each([
  { name: "PostgreSQL (PGlite)", open: openPGlite },
  { name: "SQLite (libsql, local file)", open: openLibsql },
])("security keys as a second factor on $name", ({ open }) => {
  it.each(["jwt", "database"] as const)(
    "adds, asks for, refuses and removes a key (%s)",
    async (strategy) => {
      const database = await open()
      opened.push(database)
      await createTables(database)
      const adapter = DrizzleAdapter(database.db, undefined, database.options)
      await securityKeyScenario(keyConfig(adapter, strategy))
    },
  )
})
