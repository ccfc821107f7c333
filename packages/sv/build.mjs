// Bundles the add-on into one file, dist/index.mjs, as the Svelte CLI asks of community add-ons:
// no `dependencies`, everything bundled but `sv` (a peer, the running CLI). @sveltejs/sv-utils
// (the parsers and transforms) goes into the bundle; the types come from `tsc`.
import { build } from "esbuild"
import { dependencyVersions } from "./versions.mjs"

await build({
  entryPoints: ["src/index.ts"],
  outfile: "dist/index.mjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  external: ["sv"],
  define: { __LATCH_VERSIONS__: JSON.stringify(dependencyVersions()) },
  // Bundled CommonJS modules call `require` for Node's built-ins: give the ES module one.
  banner: {
    js: 'import { createRequire as __latchRequire } from "node:module"; const require = __latchRequire(import.meta.url);',
  },
  logLevel: "warning",
})
