// Runs the Worker that `wrangler deploy --dry-run` bundled from adapter-cloudflare's output in
// workerd (miniflare), with its static assets as Workers assets serve them: a file of the
// assets directory is answered before the Worker runs, anything else goes to the Worker.
//   node serve-cloudflare.mjs <bundle.js> <assets dir> <port> <compatibility date> [flag,…]
// The Worker's variables are AUTH_SECRET, AUTH_URL and SEED_PASSWORD_HASH from this process's
// environment: what `wrangler secret put` and `vars` give a deployed Worker.
import { readdirSync } from "node:fs"
import path from "node:path"
import { Miniflare } from "miniflare"

const [scriptPath, directory, port, compatibilityDate, flags = ""] = process.argv.slice(2)
const bindings = {}
for (const name of ["AUTH_SECRET", "AUTH_URL", "SEED_PASSWORD_HASH"]) {
  if (process.env[name]) bindings[name] = process.env[name]
}

/** The bundle's other JavaScript modules (chunks), if wrangler wrote any. */
function otherModules(entry) {
  const directory = path.dirname(entry)
  return readdirSync(directory)
    .filter((name) => /\.m?js$/.test(name) && name !== path.basename(entry))
    .map((name) => path.join(directory, name))
}

const mf = new Miniflare({
  host: "127.0.0.1",
  port: Number(port),
  // Every module of the bundle listed, as Cloudflare receives them from `wrangler deploy`: a
  // dynamic import that stays in the bundle fails when it runs, not when the Worker loads.
  modulesRoot: path.dirname(scriptPath),
  modules: [scriptPath, ...otherModules(scriptPath)].map((file) => ({
    type: "ESModule",
    path: file,
  })),
  compatibilityDate,
  compatibilityFlags: flags ? flags.split(",") : [],
  bindings,
  assets: { directory, binding: "ASSETS", routerConfig: { has_user_worker: true } },
  // The Worker's console (and workerd's own errors) to this process's output: the check's log.
  handleRuntimeStdio(stdout, stderr) {
    stdout.pipe(process.stdout)
    stderr.pipe(process.stderr)
  },
})
const url = await mf.ready
console.log(`workerd listening on ${url.href}`)

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => mf.dispose().finally(() => process.exit(0)))
}
