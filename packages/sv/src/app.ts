import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { AppFacts } from "./plan.js"

/** What the add-on reads of the app before it plans: sv's Drizzle set-up, if any. */
export function readApp(cwd: string, lib: string): AppFacts {
  const first = (...names: string[]) => names.map((name) => join(cwd, name)).find(existsSync)
  const schema = first("src/lib/server/db/schema.ts", "src/lib/server/db/schema.js")
  const config = first("drizzle.config.ts", "drizzle.config.js")
  const text = config ? readFileSync(config, "utf8") : ""
  return {
    hasDrizzleSchema: schema !== undefined,
    drizzleDialect: /\bdialect\s*:\s*["'`]([\w-]+)["'`]/.exec(text)?.[1],
    drizzleD1: /\bdriver\s*:\s*["'`]d1-http["'`]/.test(text),
    lib,
  }
}
