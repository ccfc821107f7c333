// The app served as a Cloudflare-style platform serves it: SvelteKit's built server and manifest
// (.svelte-kit/output/server, what every adapter wraps) answering each request with
// `platform.env` holding the bindings, read from `.dev.vars` as `wrangler dev` reads them. None
// of them is in the process's environment nor in `$env`: the app's configuration must take its
// secret and providers from `platform.env`. HOST, PORT and ORIGIN say where to listen and the
// site's public origin.
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { Server } from "./.svelte-kit/output/server/index.js"
import { manifest } from "./.svelte-kit/output/server/manifest.js"

const origin = process.env.ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`

/** `NAME=value` lines; `#` starts a comment. */
function readVars(file) {
  const vars = {}
  for (const line of readFileSync(new URL(file, import.meta.url), "utf8").split("\n")) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line)
    if (match) vars[match[1]] = match[2]
  }
  return vars
}

const env = readVars(".dev.vars")
const server = new Server(manifest)
await server.init({ env: {} })

/** The Node.js request as a standard `Request` on the site's origin. */
async function toRequest(req) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one)
  }
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body })
}

createServer(async (req, res) => {
  try {
    const response = await server.respond(await toRequest(req), {
      platform: { env },
      getClientAddress: () => req.socket.remoteAddress ?? "",
    })
    const headers = {}
    for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value
    const cookies = response.headers.getSetCookie()
    if (cookies.length) headers["set-cookie"] = cookies
    res.writeHead(response.status, headers)
    res.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    console.error(error)
    res.writeHead(500).end()
  }
}).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1")
