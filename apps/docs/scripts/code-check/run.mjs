// The blocks marked `<!-- check: run -->`: a whole configuration, run. Each is compiled with
// esbuild, imported, and served by a real HTTP server on 127.0.0.1 that hands every request to
// Auth() with the block's configuration (its `export const config`, or its default export's
// `fetch`); then GET /auth/providers must answer 200 with the providers the block configured.
// AUTH_URL names the server, as a deployment sets it. It runs in a temporary working directory, so a block's files (`new PGlite("./data/auth")`)
// land there and are removed, never in the checkout.
import { once } from "node:events"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { transform } from "esbuild"
import { Auth } from "@latch/core"
import { docsDir } from "../../src/lib/content/paths.js"
import { moduleFor } from "./typescript.mjs"

const runDir = path.join(docsDir, ".code-check/run")

/**
 * @param {import("./collect.mjs").Block} block
 * @returns {Promise<string[]>} errors
 */
export async function runBlock(block) {
  const where = `${block.file}:${block.line}`
  mkdirSync(runDir, { recursive: true })
  const { code } = await transform(moduleFor(block).text, { loader: "ts", format: "esm" })
  const file = path.join(runDir, `${block.id}.mjs`)
  writeFileSync(file, code)
  const cwd = process.cwd()
  const scratch = mkdtempSync(path.join(tmpdir(), "latch-docs-run-"))
  process.chdir(scratch)
  try {
    return await serve(where, await import(pathToFileURL(file).href))
  } finally {
    process.chdir(cwd)
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * @param {string} where
 * @param {any} mod the block's module
 * @returns {Promise<string[]>} errors
 */
async function serve(where, mod) {
  /** @type {(request: Request) => Promise<Response>} */
  let handle
  if (mod.config) handle = (request) => /** @type {Promise<Response>} */ (Auth(request, mod.config))
  else if (typeof mod.default?.fetch === "function")
    handle = (request) => mod.default.fetch(request)
  else
    return [`${where}: a run block exports \`config\` (an AuthConfig) or a default \`{ fetch }\``]
  const server = createServer(async (req, res) => {
    try {
      const url = `http://${req.headers.host}${req.url}`
      const response = await handle(new Request(url, { method: req.method }))
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    } catch (error) {
      res.writeHead(500).end(`the block's handler threw: ${String(error)}`)
    }
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = /** @type {import("node:net").AddressInfo} */ (server.address())
  const origin = `http://127.0.0.1:${address.port}`
  // The site's origin pinned, as a deployment pins it (else Latch warns, rightly).
  const authUrl = process.env.AUTH_URL
  process.env.AUTH_URL = `${origin}/auth`
  try {
    const response = await fetch(`${origin}/auth/providers`, {
      signal: AbortSignal.timeout(10_000),
    })
    const body = await response.text()
    if (response.status !== 200) {
      return [`${where}: GET /auth/providers answered ${response.status}: ${body.slice(0, 300)}`]
    }
    const providers = JSON.parse(body)
    if (typeof providers !== "object" || providers === null || Array.isArray(providers)) {
      return [`${where}: GET /auth/providers answered no object: ${body.slice(0, 300)}`]
    }
    const listed = Object.keys(providers).length
    // With the configuration in hand, the same count; else (a block's own `fetch`) at least one.
    const configured = mod.config?.providers?.length
    if (configured === undefined ? listed === 0 : listed !== configured) {
      return [
        `${where}: GET /auth/providers listed ${listed} providers, the block configures ${configured ?? "some"}`,
      ]
    }
    return []
  } finally {
    if (authUrl === undefined) delete process.env.AUTH_URL
    else process.env.AUTH_URL = authUrl
    server.close()
  }
}
