/**
 * The migrations Drizzle Kit's generator (`drizzle-kit/api`) writes from a schema, per dialect:
 * what `drizzle-kit generate` writes for an app that spreads the schema modules into its own.
 * Apart from databases.ts so that the Bun suite (test/bun/) loads no other database's driver.
 */
import {
  generateDrizzleJson,
  generateMigration,
  generateMySQLDrizzleJson,
  generateMySQLMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from "drizzle-kit/api"

/** The statements that take a PostgreSQL database from the `from` schema to `to`. */
export async function pgMigration(
  to: Record<string, unknown>,
  from: Record<string, unknown> = {},
): Promise<string[]> {
  return generateMigration(generateDrizzleJson(from), generateDrizzleJson(to))
}

/** The statements that take a SQLite database from the `from` schema to `to`. */
export async function sqliteMigration(
  to: Record<string, unknown>,
  from: Record<string, unknown> = {},
): Promise<string[]> {
  return generateSQLiteMigration(
    await generateSQLiteDrizzleJson(from),
    await generateSQLiteDrizzleJson(to),
  )
}

/** The statements that take a MySQL database from the `from` schema to `to`. */
export async function mysqlMigration(
  to: Record<string, unknown>,
  from: Record<string, unknown> = {},
): Promise<string[]> {
  return generateMySQLMigration(
    await generateMySQLDrizzleJson(from),
    await generateMySQLDrizzleJson(to),
  )
}
