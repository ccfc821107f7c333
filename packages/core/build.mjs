// The published build of @latch/core: `dist/` holds one JavaScript file per public entry point
// (the subpaths of package.json "exports", every provider, the `latch` command), the modules
// they share in `dist/chunks/`, and the declarations tsc emits beside them.
//
// Bundled, because a Node.js `import()` pays per module file: the 56 modules that
// `import("@latch/core")` loaded as separate files took about twice as long as the same code in a
// few files (see bench/README.md). Modules that only some requests need (OAuth, email, passkeys,
// the HTML pages) stay separate chunks, loaded by `import()` when a request needs them.
// Dependencies (jose, oauth4webapi, cookie, and the optional peers) stay imports.
import { spawnSync } from "node:child_process"
import { readdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { build } from "esbuild"

rmSync("dist", { recursive: true, force: true })

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const declarations = spawnSync(
  process.execPath,
  [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly"],
  { stdio: "inherit" },
)
if (declarations.status !== 0) process.exit(declarations.status ?? 1)

const providers = readdirSync("src/providers")
  .filter((file) => file.endsWith(".ts"))
  .map((file) => `src/providers/${file}`)

await build({
  entryPoints: [
    "src/index.ts",
    "src/jwt.ts",
    "src/errors.ts",
    "src/types.ts",
    "src/adapters.ts",
    "src/cli.ts",
    ...providers,
  ],
  outdir: "dist",
  outbase: "src",
  bundle: true,
  splitting: true,
  format: "esm",
  // Web APIs only (plus node: built-ins where they are used); no Node.js-specific rewriting.
  platform: "neutral",
  target: "es2022",
  packages: "external",
  external: ["node:*"],
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  sourcesContent: false,
  logLevel: "warning",
})
