/**
 * Security keys as a second factor through `Auth` on PostgreSQL (PGlite and a real server): the
 * core scenario (`security-key-scenario.ts`) with the adapter's `secondFactor` column, counter and
 * deletion, on both session strategies.
 */
import { describe, it } from "vitest"
import { keyConfig, securityKeyScenario } from "../../core/test/helpers/security-key-scenario.js"
import { PostgresAdapter } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

describe.each(clients)("security keys as a second factor on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  it.each(["jwt", "database"] as const)(
    "adds, asks for, refuses and removes a key (%s)",
    (strategy) => securityKeyScenario(keyConfig(PostgresAdapter(db().client), strategy)),
  )
})
