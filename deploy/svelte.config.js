// One app, four deployments: DEPLOY_TARGET picks the adapter (node when unset). Each target
// builds into its own directories, so the four builds can run side by side.
import cloudflare from "@sveltejs/adapter-cloudflare"
import netlify from "@sveltejs/adapter-netlify"
import node from "@sveltejs/adapter-node"
import vercel from "@sveltejs/adapter-vercel"

const target = process.env.DEPLOY_TARGET ?? "node"

const adapters = {
  // Workers with static assets; the Worker's name, entry, assets directory, compatibility date
  // and flags are in wrangler.jsonc.
  cloudflare: () => cloudflare(),
  // Every route in one Edge Function (Vercel's edge runtime, not Node).
  vercel: () => vercel({ runtime: "edge" }),
  // Every route in one Netlify Edge Function (Deno), not a Node function.
  netlify: () => netlify({ edge: true }),
  // A Node server (build-node/index.js); it also runs on Bun and Deno.
  node: () => node({ out: "build-node" }),
}

if (!(target in adapters)) {
  throw new Error(`DEPLOY_TARGET must be one of ${Object.keys(adapters).join(", ")}`)
}

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter: adapters[target](),
    outDir: `.svelte-kit/${target}`,
  },
}
