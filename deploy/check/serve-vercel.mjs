// Runs adapter-vercel's Edge Function (`runtime: "edge"`) in Vercel's edge runtime (the
// `edge-runtime` package: the same VM, Web APIs only, no Node built-ins), behind a server that
// answers files of .vercel/output/static first, as Vercel's `{ handle: "filesystem" }` route does.
//   node serve-vercel.mjs <output dir> <port>
// The function sees AUTH_SECRET, AUTH_URL and SEED_PASSWORD_HASH as `process.env`, as on Vercel.
import { readFile, stat } from "node:fs/promises"
import { createServer } from "node:http"
import path from "node:path"
import { build } from "esbuild"
import { EdgeRuntime, createHandler } from "edge-runtime"

const [output, port] = process.argv.slice(2)
const func = path.join(output, "functions", "![-]", "catchall.func")
const config = JSON.parse(await readFile(path.join(func, ".vc-config.json"), "utf8"))
if (config.runtime !== "edge") throw new Error(`${func} is not an Edge Function`)

// The edge runtime evaluates a script, not a module: wrap the function's ES module in one that
// hands each fetch event to its default export, as Vercel's own dev server does.
const { outputFiles } = await build({
  entryPoints: [path.join(func, config.entrypoint)],
  bundle: true,
  write: false,
  format: "iife",
  globalName: "edgeFunction",
  platform: "browser",
  logLevel: "warning",
})
const wrapper = `
${outputFiles[0].text}
addEventListener("fetch", (event) => {
  const context = { waitUntil: (promise) => event.waitUntil(promise) }
  event.respondWith(edgeFunction.default(event.request, context))
})`

const env = {}
for (const name of ["AUTH_SECRET", "AUTH_URL", "SEED_PASSWORD_HASH"]) {
  if (process.env[name]) env[name] = process.env[name]
}
const runtime = new EdgeRuntime({
  initialCode: wrapper,
  extend: (context) => Object.assign(context, { process: { env } }),
})
const { handler } = createHandler({ runtime, logger: console })

const statics = path.resolve(output, "static")
async function staticFile(pathname) {
  const file = path.resolve(statics, `.${decodeURIComponent(pathname)}`)
  if (!file.startsWith(`${statics}${path.sep}`)) return undefined
  try {
    return (await stat(file)).isFile() ? await readFile(file) : undefined
  } catch {
    return undefined
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1")
  const body = req.method === "GET" ? await staticFile(url.pathname) : undefined
  if (body) {
    res.writeHead(200, { "content-length": body.length })
    res.end(body)
    return
  }
  // Vercel sets the client's address; SvelteKit's getClientAddress reads it.
  req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "127.0.0.1"
  await handler(req, res)
})
server.listen(Number(port), "127.0.0.1", () => {
  console.log(`edge-runtime listening on http://127.0.0.1:${port}/`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
