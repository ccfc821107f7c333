/**
 * The lint step's import-cycle check (`scripts/cycles.mjs`): it fails on every cycle of imports —
 * static, `export … from`, a lazy `import()`, and one through types alone (`import type`,
 * `export type … from`, a type imported in place) — and names the modules. The packages' sources
 * have none.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), "latch-cycles-"))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A package's `src` with these modules, laid out and compiled as the real packages are. */
function fixture(name: string, modules: Record<string, string>): string {
  const pkg = join(scratch, name)
  mkdirSync(join(pkg, "src"), { recursive: true })
  writeFileSync(
    join(pkg, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }),
  )
  for (const [file, text] of Object.entries(modules)) {
    mkdirSync(dirname(join(pkg, "src", file)), { recursive: true })
    writeFileSync(join(pkg, "src", file), text)
  }
  return join(pkg, "src")
}

function check(...dirs: string[]) {
  const result = spawnSync(process.execPath, ["scripts/cycles.mjs", ...dirs], {
    cwd: root,
    encoding: "utf8",
  })
  return { status: result.status, output: result.stdout + result.stderr }
}

it("fails on a cycle of static imports and names its modules", () => {
  const src = fixture("static", {
    "a.ts": 'import { b } from "./b.js"\nexport const a = () => b\n',
    "b.ts": 'import { c } from "./c.js"\nexport const b = () => c\n',
    "c.ts": 'import { a } from "./a.js"\nexport const c = () => a\n',
    "leaf.ts": "export const leaf = 1\n",
  })
  const { status, output } = check(src)
  expect(status).toBe(1)
  expect(output).toMatch(/import cycle: .*a\.ts → .*b\.ts → .*c\.ts → .*a\.ts/)
  expect(output).not.toContain("leaf.ts")
  // Reported once, as the cycle that runs: not again among the cycles through types.
  expect(output).not.toContain("through types")
})

it("fails on a cycle closed by a lazy import() or an export … from", () => {
  const lazy = fixture("lazy", {
    "gate.ts": 'import { establish } from "./establish.js"\nexport const gate = establish\n',
    "establish.ts":
      'export async function establish() {\n  return (await import("./gate.js")).gate\n}\n',
  })
  expect(check(lazy).status).toBe(1)
  const reexport = fixture("reexport", {
    "index.ts": 'export { helper } from "./helper.js"\nexport const version = 1\n',
    "helper.ts": 'import { version } from "./index.js"\nexport const helper = () => version\n',
  })
  expect(check(reexport).status).toBe(1)
})

it("fails on a cycle through types alone, and says it is one", () => {
  const src = fixture("types", {
    "types.ts":
      'import type { Provider } from "./provider.js"\nexport interface Config {\n  providers: Provider[]\n}\n',
    "provider.ts":
      'import type { Config } from "./types.js"\nexport interface Provider {\n  config: Config\n}\nexport const kind = "oauth"\n',
  })
  const { status, output } = check(src)
  expect(status).toBe(1)
  expect(output).toMatch(
    /import cycle through types: .*(types\.ts → .*provider\.ts → .*types|provider\.ts → .*types\.ts → .*provider)\.ts/,
  )
  expect(output).toContain("declare the types in a module that imports nothing")
  expect(output).not.toContain("No import cycles")
})

it("fails on a cycle through types closed by export type … from", () => {
  const src = fixture("export-type", {
    "index.ts":
      'export type { Helper } from "./helper.js"\nexport interface Options {\n  debug: boolean\n}\n',
    "helper.ts":
      'import type { Options } from "./index.js"\nexport type Helper = (options: Options) => void\n',
  })
  const { status, output } = check(src)
  expect(status).toBe(1)
  expect(output).toMatch(/import cycle through types: .*(index|helper)\.ts → /)
})

it("fails on a cycle through a type imported in place, which dpdm alone misses", () => {
  const src = fixture("import-type", {
    "config.ts": 'export interface Config {\n  provider: import("./provider.js").Provider\n}\n',
    "provider.ts":
      'import type { Config } from "./config.js"\nexport interface Provider {\n  config: Config\n}\n',
    "runner.ts": 'export type Runner = typeof import("./config.js")\n',
  })
  const { status, output } = check(src)
  expect(status).toBe(1)
  expect(output).toMatch(/import cycle through types: .*(config|provider)\.ts → /)
  // `runner.ts` imports in place too, but nothing imports it back.
  expect(output).not.toContain("runner.ts")
})

it("passes a package whose types are declared in a leaf module", () => {
  const src = fixture("leaf-types", {
    "types/config.ts":
      'import type { Provider } from "./provider.js"\nexport interface Config {\n  providers: Provider[]\n}\n',
    "types/provider.ts": "export interface Provider {\n  id: string\n}\n",
    "types.ts":
      'export type { Config } from "./types/config.js"\nexport type { Provider } from "./types/provider.js"\n',
    "provider.ts":
      'import type { Config } from "./types.js"\nexport type { Provider } from "./types/provider.js"\nexport const configured = (config: Config) => config.providers.length\n',
  })
  const { status, output } = check(src)
  expect(status).toBe(0)
  expect(output).toContain("No import cycles")
})

it("refuses the option that once listed the cycles through types", () => {
  const src = fixture("option", { "a.ts": "export const a = 1\n" })
  const { status, output } = check("--types", src)
  expect(status).toBe(2)
  expect(output).toContain("unknown option --types")
})

it("refuses a comment that hides an import from the check", () => {
  const src = fixture("hidden", {
    "a.ts": '// @dpdm-ignore\nimport { b } from "./b.js"\nexport const a = () => b\n',
    "b.ts": 'import { a } from "./a.js"\nexport const b = () => a\n',
  })
  const { status, output } = check(src)
  expect(status).toBe(1)
  expect(output).toContain("@dpdm-ignore")
})

it("finds no cycle in the packages' sources", () => {
  const { status, output } = check()
  expect(output).toContain("packages/core/src")
  expect(status).toBe(0)
})
