import adapter from "@sveltejs/adapter-node"
import { VERSION } from "@sveltejs/kit"
import { sveltekit } from "@sveltejs/kit/vite"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

// `@latch/sveltekit` from its sources, so that the app always runs the code under test (no
// stale `dist`). The package cannot resolve itself by name from here: adapter-node needs a
// package.json in the app's directory, which ends the package scope of @latch/sveltekit.
const lib = fileURLToPath(new URL("../../src/lib", import.meta.url))

// The configuration is passed to the plugin (SvelteKit ≥ 2.62), which SvelteKit 3 requires: it
// no longer reads svelte.config.js. adapter-node takes the public origin from the `ORIGIN`
// variable at run time with SvelteKit 2, from `paths.origin` at build time with SvelteKit 3; the
// test sets `ORIGIN` for both. (Typed as `object`: SvelteKit 2's types have no `paths.origin`.)
const origin: object = VERSION.startsWith("2.") ? {} : { paths: { origin: process.env.ORIGIN } }

// Each test file builds its own copy (its origin differs), under a name of its own so that
// builds running side by side do not overwrite each other (test/helpers/app.ts).
const name = process.env.LATCH_TEST_APP_NAME ?? "app"

export default defineConfig({
  // Vite's cache (and, from Vite 8.4, its lock against a second build of the same project) per
  // build too: the builds side by side are of different copies, not one project built twice.
  cacheDir: `node_modules/.vite/${name}`,
  plugins: [
    sveltekit({
      adapter: adapter({ out: `build/${name}` }),
      outDir: `.svelte-kit/${name}`,
      ...origin,
    }),
  ],
  logLevel: "warn",
  resolve: {
    alias: [
      { find: /^@latch\/sveltekit$/, replacement: `${lib}/index.ts` },
      { find: /^@latch\/sveltekit\/components$/, replacement: `${lib}/components/index.ts` },
      { find: /^@latch\/sveltekit\/client$/, replacement: `${lib}/client.ts` },
      { find: /^@latch\/sveltekit\/providers\/(.+)$/, replacement: `${lib}/providers/$1.ts` },
    ],
  },
})
