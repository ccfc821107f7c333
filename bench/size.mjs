// Static cost: the minified + gzipped size of what `@latch/sveltekit` adds to a browser bundle —
// the client helpers and the components — bundled the way an app's bundler would (SvelteKit's
// `$app/*` modules and the Svelte runtime stay external: every SvelteKit app has them anyway).
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { compile } from "svelte/compiler"
import { isMain } from "./lib/common.mjs"

const dist = new URL("../packages/sveltekit/dist/", import.meta.url)

async function minified(entry, plugins = []) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    external: ["$app/*", "svelte", "svelte/*"],
    plugins,
  })
  return result.outputFiles[0].contents
}

/** Compiles `.svelte` files for the browser, as vite-plugin-svelte does for an app. */
const sveltePlugin = {
  name: "svelte",
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, ({ path }) => ({
      contents: compile(readFileSync(path, "utf8"), { generate: "client", filename: path }).js.code,
      loader: "js",
    }))
  },
}

export async function runSize() {
  const measure = (bytes) => ({
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
  })
  const client = measure(await minified(fileURLToPath(new URL("client.js", dist))))
  const components = measure(
    await minified(fileURLToPath(new URL("components/index.js", dist)), [sveltePlugin]),
  )
  const summary = `the client entry (\`signIn\`, \`signOut\`, \`getSession\`, \`updateSession\`) is ${client.gzip} B minified + gzipped (goal: under 1 KB)`
  const markdown = `## What the browser downloads

Bundled with esbuild (\`minify\`, ESM, SvelteKit's \`$app/*\` modules and the Svelte runtime
external, as every SvelteKit app ships them anyway), then gzip level 9.

| Entry | Minified | Minified + gzip |
| --- | ---: | ---: |
| \`@latch/sveltekit/client\` | ${client.minified} B | **${client.gzip} B** |
| \`@latch/sveltekit/components\` (\`SignIn\`, \`SignOut\`, compiled for the browser) | ${components.minified} B | **${components.gzip} B** |
`
  return { client, components, summary, markdown }
}

if (isMain(import.meta.url)) {
  const { client, components } = await runSize()
  console.log(`client: ${client.minified} B minified, ${client.gzip} B gzip`)
  console.log(`components: ${components.minified} B minified, ${components.gzip} B gzip`)
}
