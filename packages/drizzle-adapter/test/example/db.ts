// The README's setup example: the database, the adapter, the Latch configuration.
import Database from "better-sqlite3"
import { DrizzleAdapter } from "@latch/drizzle-adapter"
import type { AuthConfig } from "@latch/core/types"
import { drizzle } from "drizzle-orm/better-sqlite3"
import * as schema from "./schema.js"

export function authConfig(file: string) {
  const db = drizzle(new Database(file), { schema })
  const config: AuthConfig = {
    adapter: DrizzleAdapter(db),
    session: { strategy: "database", cache: true },
    providers: [],
  }
  return { db, config }
}
