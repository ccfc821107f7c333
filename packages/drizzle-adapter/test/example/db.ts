// The README's setup example: the database, the adapter, the Latch configuration.
import { createClient } from "@libsql/client"
import { DrizzleAdapter } from "@latch/drizzle-adapter"
import type { AuthConfig } from "@latch/core/types"
import { drizzle } from "drizzle-orm/libsql"
import * as schema from "./schema.js"

export function authConfig(file: string) {
  const db = drizzle(createClient({ url: `file:${file}` }), { schema })
  const config: AuthConfig = {
    adapter: DrizzleAdapter(db),
    session: { strategy: "database", cache: true },
    providers: [],
  }
  return { db, config }
}
