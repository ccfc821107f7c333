// `pnpm --filter latch-docs run check:code`: every code block of every page of the site compiles
// against the workspace's built packages (TypeScript and JavaScript type-checked, Svelte through
// its compiler, JSON and TOML parsed), and the blocks marked `<!-- check: run -->` run: Auth()
// serves their configuration and answers GET /auth/providers. Blocks marked skip are counted with
// their reason; blocks in languages nothing compiles (shell, SQL, text) are counted by language.
// How to mark a block: apps/docs/README.md.
import { randomBytes } from "node:crypto"
import { collectBlocks, NOT_COMPILED } from "./code-check/collect.mjs"
import { checkFormat } from "./code-check/formats.mjs"
import { runBlock } from "./code-check/run.mjs"
import { compileSvelte } from "./code-check/svelte.mjs"
import { typeCheck } from "./code-check/typescript.mjs"

const started = Date.now()
const blocks = collectBlocks()
/** @type {Map<string, string[]>} */
const failures = new Map()
const fail = (/** @type {string} */ id, /** @type {string[]} */ errors) => {
  if (errors.length) failures.set(id, [...(failures.get(id) ?? []), ...errors])
}

const scripts = blocks.filter((b) => b.check === "ts" || b.check === "js")
const typeErrors = typeCheck(scripts)
for (const [id, errors] of typeErrors) fail(id, errors)
for (const block of blocks.filter((b) => b.check === "svelte")) fail(block.id, compileSvelte(block))
for (const block of blocks.filter((b) => b.check === "json" || b.check === "toml")) {
  fail(block.id, checkFormat(block))
}

// The runnable blocks read their secret and origin from the environment, as a deployment does.
process.env.AUTH_SECRET ??= randomBytes(33).toString("base64")
process.env.AUTH_TRUST_HOST ??= "true"
const runnable = blocks.filter((b) => b.markers.some((m) => m.kind === "run"))
let ran = 0
for (const block of runnable) {
  if (failures.has(block.id)) continue
  try {
    fail(block.id, await runBlock(block))
  } catch (error) {
    fail(block.id, [
      `${block.file}:${block.line}: running it threw ${/** @type {Error} */ (error).stack}`,
    ])
  }
  if (!failures.has(block.id)) ran++
}

const count = (/** @type {string} */ check) => blocks.filter((b) => b.check === check).length
const compiled = blocks.filter((b) => !["skip", "not-compiled"].includes(b.check))
console.log(`code blocks of the docs site: ${blocks.length}`)
for (const check of ["ts", "js", "svelte", "json", "toml"]) {
  console.log(`  ${check.padEnd(7)} ${String(count(check)).padStart(4)} compiled`)
}
console.log(
  `  run     ${String(runnable.length).padStart(4)} run (Auth() answered GET /auth/providers: ${ran})`,
)
const skipped = blocks.filter((b) => b.check === "skip")
console.log(`  skipped ${String(skipped.length).padStart(4)} marked \`check: skip\`:`)
for (const block of skipped) {
  const reason = block.markers.find((m) => m.kind === "skip")
  console.log(
    `          ${block.file}:${block.line}: ${reason && "reason" in reason ? reason.reason : ""}`,
  )
}
const others = blocks.filter((b) => b.check === "not-compiled")
for (const [lang, why] of Object.entries(NOT_COMPILED)) {
  const n = others.filter((b) => b.lang === lang).length
  if (n)
    console.log(`  ${(lang || "plain").padEnd(7)} ${String(n).padStart(4)} not compiled: ${why}`)
}
if (typeErrors.has("(globals)")) {
  console.log(
    `\n✗ code-check/globals.d.ts does not compile:\n  ${typeErrors.get("(globals)")?.join("\n  ")}`,
  )
}
for (const [id, errors] of failures) {
  if (id === "(globals)") continue
  console.log(`\n✗ ${id}\n  ${errors.join("\n  ")}`)
}
const failed =
  compiled.filter((b) => failures.has(b.id)).length + (typeErrors.has("(globals)") ? 1 : 0)
console.log(`\nchecked in ${((Date.now() - started) / 1000).toFixed(1)} s`)
console.log(
  `blocks: ${compiled.length - failed} passed, ${failed} failed, ${skipped.length} skipped`,
)
process.exit(failed ? 1 : 0)
