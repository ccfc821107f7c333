import { DATABASES, PROVIDERS, type DatabaseChoice, type ProviderChoice } from "./options.js"

/** The Drizzle dialects whose tables `@latch/drizzle-adapter` exports, by drizzle-kit's names. */
const DRIZZLE_SCHEMAS: Record<string, string> = {
  sqlite: "sqlite",
  turso: "sqlite",
  postgresql: "pg",
  mysql: "mysql",
}

/** What the add-on writes, decided from the answers and the app before anything is written. */
export interface Plan {
  providers: ProviderChoice[]
  database: DatabaseChoice
  /** Nodemailer is configured: for email links, and as the mail transport of password accounts. */
  mailer: boolean
  /** `@latch/drizzle-adapter/<schema>`: the tables spread into the app's Drizzle schema. */
  drizzleSchema?: string
  /** How the app imports `src/lib`: `$lib` (SvelteKit 2) or `#lib` (SvelteKit 3). */
  lib: string
}

/** What the add-on knows of the app (read from its files) when it plans. */
export interface AppFacts {
  /** `src/lib/server/db/schema.ts` (or `.js`) exists: sv's drizzle add-on ran. */
  hasDrizzleSchema: boolean
  /** The `dialect` of `drizzle.config.*`, when there is one. */
  drizzleDialect?: string | undefined
  /** `driver: "d1-http"` in `drizzle.config.*`. */
  drizzleD1?: boolean
  /** How the app imports `src/lib`: `$lib` (SvelteKit 2) or `#lib` (SvelteKit 3). */
  lib?: string
}

/** A plan, or the reason the answers cannot be carried out (shown by `sv`, nothing written). */
export function makePlan(
  answers: { providers?: unknown; database?: unknown },
  app: AppFacts,
): Plan | { refused: string } {
  const providers = Array.isArray(answers.providers) ? answers.providers : []
  const unknown = providers.filter((p) => !(PROVIDERS as readonly string[]).includes(p))
  if (unknown.length > 0) {
    return { refused: `unknown providers ${unknown.join(", ")} (known: ${PROVIDERS.join(", ")})` }
  }
  if (providers.length === 0) {
    return { refused: `choose at least one provider (${PROVIDERS.join(", ")})` }
  }
  const database = String(answers.database ?? "none") as DatabaseChoice
  if (!DATABASES.includes(database)) {
    return { refused: `unknown database ${database} (known: ${DATABASES.join(", ")})` }
  }
  const needsDatabase = providers.filter((p) => p === "password" || p === "email")
  if (database === "none" && needsDatabase.length > 0) {
    return {
      refused:
        `${needsDatabase.join(" and ")} sign-in stores users and single-use tokens: ` +
        "choose a database (pglite, postgres or drizzle)",
    }
  }
  const plan: Plan = {
    providers: PROVIDERS.filter((p) => providers.includes(p)),
    database,
    mailer: providers.includes("email") || providers.includes("password"),
    lib: app.lib ?? "$lib",
  }
  if (database === "drizzle") {
    if (!app.hasDrizzleSchema) {
      return {
        refused:
          "database:drizzle uses the app's Drizzle database, and src/lib/server/db/schema.ts is " +
          "missing: run `npx sv add drizzle` first, or choose pglite or postgres",
      }
    }
    if (app.drizzleD1) {
      return { refused: "@latch/drizzle-adapter does not support Cloudflare D1 yet" }
    }
    const schema = app.drizzleDialect && DRIZZLE_SCHEMAS[app.drizzleDialect]
    if (!schema) {
      return {
        refused: `cannot tell the Drizzle dialect from drizzle.config (found ${app.drizzleDialect ?? "none"}; known: ${Object.keys(DRIZZLE_SCHEMAS).join(", ")})`,
      }
    }
    plan.drizzleSchema = schema
  }
  return plan
}
