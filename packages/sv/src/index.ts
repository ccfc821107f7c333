import { color, resolveLibPrefix, transforms } from "@sveltejs/sv-utils"
import { defineAddon } from "sv"
import { readApp } from "./app.js"
import { declareLocals, linkFromHome, mergeHooks, newHooks, spreadDrizzleTables } from "./hooks.js"
import { nextSteps } from "./next-steps.js"
import { options } from "./options.js"
import { makePlan, type Plan } from "./plan.js"
import { authModule } from "./templates/auth.js"
import { databaseModule } from "./templates/database.js"
import { demoUserModule } from "./templates/demo-user.js"
import { addVariables, variables } from "./templates/env.js"
import { routeFiles } from "./templates/routes.js"
import { version } from "./versions.js"

/** The files the add-on found already there and left as they were (named in the next steps). */
const kept: string[] = []

/** Writes `content` to a new file; an existing one is kept, and named in the next steps. */
function create(path: string, content: string) {
  return (existing: string) => {
    if (existing.trim() === "") return content
    kept.push(path)
    return false
  }
}

export default defineAddon({
  id: "latch",
  shortDescription: "sign-in and sessions",
  homepage: "https://www.npmjs.com/package/@latch/sv",
  options,

  setup: ({ isKit, unsupported }) => {
    if (!isKit) unsupported("Latch's add-on sets up a SvelteKit app")
  },

  run: ({ sv, options: answers, cancel, cwd, language, directory, dependencyVersion, file }) => {
    if (language !== "ts") {
      return cancel("Latch's add-on writes TypeScript: create the app with `--types ts`")
    }
    const lib = resolveLibPrefix(dependencyVersion("@sveltejs/kit"))
    const plan = makePlan(answers, readApp(cwd, lib))
    if ("refused" in plan) return cancel(plan.refused)
    kept.length = 0

    addDependencies(sv, plan)
    // PGlite's module makes its data folder with node:fs; sv's minimal template has no Node types.
    if (plan.database === "pglite" && !dependencyVersion("@types/node")) {
      sv.devDependency("@types/node", version("@types/node"))
    }
    const src = directory.src
    sv.file(`${src}/auth.ts`, create(`${src}/auth.ts`, authModule(plan)))
    const database = databaseModule(plan)
    if (database) {
      const path = `${directory.lib}/server/auth-database.ts`
      sv.file(path, create(path, database))
    }
    if (plan.providers.includes("credentials")) {
      const path = `${directory.lib}/server/demo-user.ts`
      sv.file(path, create(path, demoUserModule(plan)))
    }
    if (plan.drizzleSchema) {
      sv.file(`${directory.lib}/server/db/schema.ts`, spreadDrizzleTables(plan.drizzleSchema))
    }
    sv.file(`${src}/hooks.server.ts`, (content) =>
      content.trim() === "" ? newHooks : mergeHooks()(content),
    )
    sv.file(`${src}/app.d.ts`, declareLocals)
    for (const [route, content] of Object.entries(routeFiles(plan))) {
      const path = `${directory.kitRoutes}/${route}`
      sv.file(path, create(path, content))
    }
    sv.file(`${directory.kitRoutes}/+page.svelte`, (content) =>
      content.includes('href="/protected"') ? false : linkFromHome(content),
    )

    const list = variables(plan)
    sv.file(".env", (content) => addVariables(content, list, false))
    sv.file(".env.example", (content) => addVariables(content, list, true))
    const ignored = [".env", ...(plan.database === "pglite" ? ["/data"] : [])]
    sv.file(
      file.gitignore,
      transforms.text(({ content }) => {
        const lines = content.split("\n").map((line) => line.trim())
        const missing = ignored.filter((entry) => !lines.includes(entry))
        if (missing.length === 0) return false
        const why =
          plan.database === "pglite"
            ? "# Latch: the secrets in .env, and PGlite's data"
            : "# Latch: the secrets in .env"
        return `${content.replace(/\n*$/, "\n")}\n${why}\n${missing.join("\n")}\n`
      }),
    )
  },

  nextSteps: ({ options: answers, cwd, dependencyVersion }) => {
    const plan = makePlan(
      answers,
      readApp(cwd, resolveLibPrefix(dependencyVersion("@sveltejs/kit"))),
    )
    if ("refused" in plan) return []
    const steps = nextSteps(plan, (script) => color.command(`npm run ${script}`))
    if (kept.length > 0) {
      steps.push(`Kept your own ${kept.join(", ")}: see @latch/sv's README for what it would hold`)
    }
    return steps
  },
})

function addDependencies(
  sv: {
    dependency(name: string, range: string): void
    devDependency(name: string, range: string): void
  },
  plan: Plan,
) {
  const runtime = (name: string) => sv.dependency(name, version(name))
  runtime("@latch/sveltekit")
  if (plan.database === "pglite") {
    runtime("@latch/pg-adapter")
    runtime("@electric-sql/pglite")
  }
  if (plan.database === "postgres") {
    runtime("@latch/pg-adapter")
    runtime("pg")
    sv.devDependency("@types/pg", version("@types/pg"))
  }
  if (plan.database === "drizzle") runtime("@latch/drizzle-adapter")
  if (plan.mailer) runtime("nodemailer")
}
