// The flow program bundled once per runtime, as that runtime's bundler would: the conditions
// its resolver uses, Node.js built-ins left to the runtime. `nodemailer` stays out, as in an app
// that does not install it: it is an optional peer of @latch/core that no flow uses (the email
// flows send through functions of their own), so a bundle that still names it (through core's
// main graph, or `Email`) fails to load in workerd, which takes no module it was not given.
// @simplewebauthn/server, which passkeys need, is bundled.
import { build } from "esbuild"
import { join } from "node:path"

const here = new URL("..", import.meta.url).pathname

/** esbuild's options per kind of runtime. */
const TARGETS = {
  node: { entry: "process", platform: "node", conditions: [] },
  bun: { entry: "process", platform: "node", conditions: ["bun"] },
  deno: {
    entry: "process",
    platform: "neutral",
    conditions: ["deno", "node", "import"],
    mainFields: ["module", "main"],
  },
  // What Wrangler asks of esbuild for Workers.
  workerd: {
    entry: "worker",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["browser", "module", "main"],
  },
}

/**
 * For diagnosis only (`--stub-optional`): the optional peers as empty modules, so that a runtime
 * that cannot load a bundle naming them still shows what the flows do.
 */
const stubOptional = {
  name: "stub-optional",
  setup(build) {
    build.onResolve({ filter: /^nodemailer$/ }, ({ path }) => ({ path, namespace: "stub" }))
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {}" }))
  },
}

/**
 * Bundles the program for each kind in `kinds`; returns the files by kind. `program`: "flows"
 * (the check) or "hash" (bench/password-runtimes.mjs).
 */
export async function bundle(kinds, { stub = false, program = "flows" } = {}) {
  const files = {}
  await Promise.all(
    kinds.map(async (kind) => {
      const { entry, ...options } = TARGETS[kind]
      const name = program === "flows" ? entry : `hash-${entry}`
      const outfile = join(here, "dist", `${program === "flows" ? "" : "hash-"}${kind}.mjs`)
      await build({
        entryPoints: [join(here, "src/entries", `${name}.ts`)],
        outfile,
        bundle: true,
        format: "esm",
        target: "es2022",
        external: stub ? ["node:*"] : ["node:*", "nodemailer"],
        plugins: stub ? [stubOptional] : [],
        logLevel: "error",
        ...options,
      })
      files[kind] = outfile
    }),
  )
  return files
}
