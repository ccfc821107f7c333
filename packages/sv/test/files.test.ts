import { describe, expect, it } from "vitest"
import { mergeHooks, newHooks, spreadDrizzleTables } from "../src/hooks.js"
import { makePlan } from "../src/plan.js"
import { authModule } from "../src/templates/auth.js"
import { addVariables, variables } from "../src/templates/env.js"

const noDrizzle = { hasDrizzleSchema: false }
const plan = (answers: { providers: string[]; database: string }) => {
  const made = makePlan(answers, { hasDrizzleSchema: true, drizzleDialect: "sqlite" })
  if ("refused" in made) throw new Error(made.refused)
  return made
}

describe("the plan", () => {
  it("refuses password accounts and email links without a database", () => {
    for (const provider of ["password", "email"]) {
      const made = makePlan({ providers: [provider], database: "none" }, noDrizzle)
      expect(made).toEqual({ refused: expect.stringContaining("choose a database") })
    }
  })

  it("refuses Drizzle in an app without sv's drizzle add-on, and names the fix", () => {
    const made = makePlan({ providers: ["credentials"], database: "drizzle" }, noDrizzle)
    expect(made).toEqual({ refused: expect.stringContaining("npx sv add drizzle") })
  })

  it("refuses Cloudflare D1 and an unknown dialect", () => {
    const answers = { providers: ["credentials"], database: "drizzle" }
    const d1 = makePlan(answers, {
      hasDrizzleSchema: true,
      drizzleDialect: "sqlite",
      drizzleD1: true,
    })
    expect(d1).toEqual({ refused: expect.stringContaining("D1") })
    const other = makePlan(answers, { hasDrizzleSchema: true, drizzleDialect: "gel" })
    expect(other).toEqual({ refused: expect.stringContaining("gel") })
  })

  it("picks the Drizzle tables of the app's dialect", () => {
    const answers = { providers: ["credentials"], database: "drizzle" }
    for (const [dialect, schema] of [
      ["sqlite", "sqlite"],
      ["turso", "sqlite"],
      ["postgresql", "pg"],
      ["mysql", "mysql"],
    ]) {
      const made = makePlan(answers, { hasDrizzleSchema: true, drizzleDialect: dialect })
      expect(made).toMatchObject({ drizzleSchema: schema })
    }
  })

  it("refuses no provider and unknown values", () => {
    expect(makePlan({ providers: [], database: "none" }, noDrizzle)).toHaveProperty("refused")
    expect(makePlan({ providers: ["facebook"], database: "none" }, noDrizzle)).toHaveProperty(
      "refused",
    )
    expect(makePlan({ providers: ["github"], database: "mongo" }, noDrizzle)).toHaveProperty(
      "refused",
    )
  })

  it("configures Nodemailer for password accounts, as their mail transport", () => {
    expect(plan({ providers: ["password"], database: "pglite" }).mailer).toBe(true)
    expect(plan({ providers: ["github"], database: "pglite" }).mailer).toBe(false)
  })
})

describe("src/auth.ts", () => {
  it("without a database: JWT sessions, no adapter", () => {
    const source = authModule(plan({ providers: ["credentials", "github"], database: "none" }))
    expect(source).not.toContain("adapter")
    expect(source).toContain("GitHub,")
    expect(source).toContain("authorizeDemoUser(credentials)")
  })

  it("with a database: the adapter, database sessions, made on the first request", () => {
    const source = authModule(plan({ providers: ["password"], database: "pglite" }))
    expect(source).toContain('session: { strategy: "database" }')
    expect(source).toContain("Password(),")
    expect(source).toContain("Nodemailer(),")
    expect(source).toContain("SvelteKitAuth(() => {")
  })
})

describe(".env", () => {
  const list = variables(plan({ providers: ["credentials", "github"], database: "none" }))

  it("gets a fresh secret each time, and .env.example the names alone", () => {
    const first = addVariables("", list, false)
    const second = addVariables(
      "",
      variables(plan({ providers: ["github"], database: "none" })),
      false,
    )
    const secret = (text: string) => /^AUTH_SECRET=(.*)$/m.exec(text)?.[1]
    expect(secret(first)).toMatch(/^[A-Za-z0-9_-]{44}$/)
    expect(secret(first)).not.toBe(secret(second))
    const example = addVariables("", list, true)
    expect(example).toMatch(/^AUTH_SECRET=$/m)
    expect(example).toMatch(/^AUTH_DEMO_PASSWORD=$/m)
    expect(example).toMatch(/^AUTH_GITHUB_ID=$/m)
  })

  it("keeps what is set already and adds what is missing", () => {
    const existing = 'DATABASE_URL=file:local.db\nAUTH_SECRET="kept"'
    const result = addVariables(existing, list, false)
    expect(result.startsWith(`${existing}\n`)).toBe(true)
    expect(result.match(/AUTH_SECRET=/g)).toHaveLength(1)
    expect(result).toContain("AUTH_DEMO_PASSWORD=")
    expect(addVariables(result, list, false)).toBe(result)
  })
})

/** `export const handle = sequence(latchHandle, protect(…), <rest>)`, however it is wrapped. */
const OURS_THEN = (rest: string) =>
  new RegExp(
    `export const handle = sequence\\(\\s*latchHandle,\\s*protect\\(\\["/protected"\\], \\{ signIn: "/signin" \\}\\),\\s*${rest}\\s*\\)`,
  )

describe("src/hooks.server.ts", () => {
  const merge = mergeHooks()

  it("puts Latch's hook first in an app's own handle", () => {
    const result = merge(`import type { Handle } from "@sveltejs/kit"

export const handle: Handle = async ({ event, resolve }) => resolve(event)
`)
    expect(result).toMatch(/import \{ handle as latchHandle \} from ["']\.\/auth["']/)
    expect(result).toMatch(/const appHandle: Handle = async/)
    expect(result).toMatch(OURS_THEN("appHandle"))
  })

  it("puts Latch's hook first in an existing sequence", () => {
    const result = merge(`import { sequence } from "@sveltejs/kit/hooks"
import type { Handle } from "@sveltejs/kit"

const one: Handle = ({ event, resolve }) => resolve(event)
const two: Handle = ({ event, resolve }) => resolve(event)

export const handle = sequence(one, two)
`)
    expect(result).toMatch(OURS_THEN("one,\\s*two"))
  })

  it("wraps an exported function, and a handle exported by name or from another module", () => {
    const fn = merge(
      "export async function handle({ event, resolve }) {\n  return resolve(event)\n}\n",
    )
    expect(fn).toMatch(/async function appHandle\(/)
    expect(fn).toMatch(OURS_THEN("appHandle"))
    const named = merge(
      "const mine = async ({ event, resolve }) => resolve(event)\nexport { mine as handle }\n",
    )
    expect(named).toMatch(OURS_THEN("mine"))
    expect(named).not.toMatch(/export \{/)
    const reexport = merge('export { handle } from "./hooks/handle"\n')
    expect(reexport).toMatch(/import \{ handle as appHandle \} from ["']\.\/hooks\/handle["']/)
    expect(reexport).toMatch(OURS_THEN("appHandle"))
  })

  it("adds Latch's handle to a file without one", () => {
    const result = merge("export const handleError = ({ error }) => console.error(error)\n")
    expect(result).toContain("export const handleError")
    expect(result).toMatch(/export const handle = sequence\(\s*latchHandle,\s*protect\(/)
  })

  it("changes nothing the second time", () => {
    const once = merge("export const handle = async ({ event, resolve }) => resolve(event)\n")
    expect(merge(once)).toBe(once)
  })

  it("a new file composes Latch's hook and the guard", () => {
    expect(newHooks).toContain(
      'export const handle = sequence(latchHandle, protect(["/protected"], { signIn: "/signin" }))',
    )
  })
})

describe("the Drizzle schema", () => {
  it("spreads Latch's tables next to the app's", () => {
    const schema = `import { sqliteTable, text } from "drizzle-orm/sqlite-core"

export const task = sqliteTable("task", { id: text("id").primaryKey() })
`
    const result = spreadDrizzleTables("sqlite")(schema)
    expect(result).toContain('export const task = sqliteTable("task"')
    expect(result).toMatch(/export \* from ["']@latch\/drizzle-adapter\/sqlite["']/)
    expect(spreadDrizzleTables("sqlite")(result)).toBe(result)
  })
})
