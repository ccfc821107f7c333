// measure the components entry straight from packages/sveltekit/src (ts via esbuild)
import { build } from "esbuild"
import { gzipSync } from "node:zlib"
import { readFileSync } from "node:fs"
import { compile } from "svelte/compiler"
const src = "/work/wt/passkey-autofill/packages/sveltekit/src/lib/components/index.ts"
const sveltePlugin = { name: "svelte", setup(b) {
  b.onResolve({ filter: /\.js$/ }, (args) => { if (args.importer.includes("/src/lib/") && args.path.startsWith(".")) { const ts = new URL(args.path.replace(/\.js$/, ".ts"), "file://" + args.importer).pathname; try { readFileSync(ts); return { path: ts } } catch {} } })
  b.onLoad({ filter: /\.svelte$/ }, ({ path }) => ({ contents: compile(readFileSync(path, "utf8"), { generate: "client", css: "injected", filename: path }).js.code, loader: "js", resolveDir: path.replace(/\/[^/]*$/, "") })) } }
for (const splitting of [true, false]) {
const r = await build({ stdin: { contents: `export { SignIn, SignOut } from "${src}"`, resolveDir: process.cwd(), loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", conditions: ["svelte","browser"], write: false, splitting, outdir: "/tmp/pa-out", external: ["$app/*","svelte","svelte/*"], plugins: [sveltePlugin], logLevel: "error" })
for (const f of r.outputFiles) console.log(splitting ? "split" : "whole", f.path.split("/").pop(), f.contents.length, gzipSync(f.contents, {level:9}).length)
}
