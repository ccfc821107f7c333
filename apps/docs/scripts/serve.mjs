// `pnpm run docs` (after the build): serves the built site at http://127.0.0.1:4321 (PORT to change),
// as a static host would. For reading the docs locally; the site itself is plain files.
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import path from "node:path"
import { buildDir, fileForRequestPath } from "./site-files.mjs"

const TYPES = /** @type {Record<string, string>} */ ({
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
})

const port = Number(process.env.PORT ?? 4321)
createServer((req, res) => {
  const { pathname } = new URL(req.url ?? "/", "http://localhost")
  const file = fileForRequestPath(pathname)
  if (!file) {
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
    return
  }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" })
  res.end(readFileSync(file))
}).listen(port, "127.0.0.1", () => {
  console.log(`the docs (${path.relative(process.cwd(), buildDir)}) at http://127.0.0.1:${port}`)
})
