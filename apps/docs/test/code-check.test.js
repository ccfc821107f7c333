// The code-block check fails where it should: a type error in a block is reported at the
// Markdown line it is on, a configuration fragment is checked against AuthConfig, a Svelte block
// that does not compile is reported, and a runnable block is served through Auth().
import { rmSync } from "node:fs"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runBlock } from "../scripts/code-check/run.mjs"
import { compileSvelte } from "../scripts/code-check/svelte.mjs"
import { typeCheck } from "../scripts/code-check/typescript.mjs"
import { docsDir } from "../src/lib/content/paths.js"

const dir = path.join(docsDir, ".code-check", `test-${process.pid}`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** @returns {import("../scripts/code-check/collect.mjs").Block} */
const block = (/** @type {string} */ id, /** @type {string} */ code, line = 10, lang = "ts") => ({
  lang,
  code,
  line,
  markers: [],
  file: "page.md",
  check: lang,
  id,
})

describe("the TypeScript check", () => {
  it("passes a correct block, and reports a wrong one at its Markdown line", () => {
    const errors = typeCheck(
      [
        block(
          "good",
          'import { Auth } from "@latch/core"\nexport const answer = Auth(request, config)',
        ),
        block("bad", 'import { Auth } from "@latch/core"\n\nAuth(request)', 20),
        block("fragment", 'session: { strategy: "nope" },', 30),
      ],
      dir,
    )
    expect(errors.has("good")).toBe(false)
    expect(errors.get("bad")?.[0]).toMatch(/^page\.md:22: TS2554/)
    expect(errors.get("fragment")?.[0]).toMatch(/^page\.md:30: TS2322/)
  }, 60_000)
})

describe("the Svelte check", () => {
  it("compiles a component, and reports one that does not compile", () => {
    expect(
      compileSvelte(block("ok", "<script>let a = $state(1)</script>{a}", 5, "svelte")),
    ).toEqual([])
    const [error] = compileSvelte(block("broken", "<p>\n{#if a}</p>", 5, "svelte"))
    expect(error).toMatch(/^page\.md:6: /)
  })
})

describe("a runnable block", () => {
  it("is served through Auth(): GET /auth/providers lists what it configures", async () => {
    process.env.AUTH_SECRET ??= "a-test-secret-of-at-least-thirty-two-characters"
    process.env.AUTH_TRUST_HOST ??= "true"
    const credentials = `import Credentials from "@latch/core/providers/credentials"
export const config = { providers: [Credentials({ authorize: () => null })] }`
    expect(await runBlock(block("runs", credentials))).toEqual([])
  }, 30_000)

  it("fails when it exports nothing to serve", async () => {
    const [error] = await runBlock(block("nothing", "export const x = 1", 40))
    expect(error).toMatch(/^page\.md:40: a run block exports `config`/)
  }, 30_000)
})
