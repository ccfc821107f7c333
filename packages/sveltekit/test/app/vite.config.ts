import { sveltekit } from "@sveltejs/kit/vite"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

// `@latch/sveltekit` from its sources, so that the app always runs the code under test (no
// stale `dist`). The package cannot resolve itself by name from here: adapter-node needs a
// package.json in the app's directory, which ends the package scope of @latch/sveltekit.
const lib = fileURLToPath(new URL("../../src/lib", import.meta.url))

export default defineConfig({
  plugins: [sveltekit()],
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
