import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

// @auth/sveltekit imports SvelteKit's virtual modules (`$env/…`, `$app/…`), so vite must bundle
// it, as it does for an app that lists it in its dependencies (found there by vite-plugin-svelte);
// the workspace's @latch/sveltekit is linked source, bundled anyway.
export default defineConfig({
  plugins: [sveltekit()],
  ssr: { noExternal: ["@auth/sveltekit"] },
  logLevel: "warn",
})
