// The check's own parts that decide what it measures: a port taken by something else between
// being probed and being bound must not pass for the deployment's server.
import assert from "node:assert/strict"
import { createServer } from "node:http"
import { test } from "node:test"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, startServer } from "./servers.mjs"
import { denoBinary } from "./targets.mjs"

const listen = (server, port) =>
  new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)))
const close = (server) => new Promise((resolve) => server.close(resolve))

test("a port from freePort is free, below the kernel's ephemeral range, and not handed out twice", async () => {
  const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)
  const ports = []
  for (let i = 0; i < 40; i++) ports.push(await freePort())
  assert.equal(new Set(ports).size, ports.length)
  for (const port of ports) assert.ok(port >= 10_000 && port < Number(low), `${port} < ${low}`)
  const server = await listen(createServer(), ports[0])
  assert.equal(server.address().port, ports[0])
  await close(server)
})

test("a server that is not the deployment's (404 for robots.txt) on the port is not taken for it", async () => {
  const port = await freePort()
  const impostor = await listen(
    createServer((request, response) => response.writeHead(404).end("not found")),
    port,
  )
  try {
    // The deployment's process never binds the port (it sleeps): only the impostor answers.
    const sleeper = {
      file: process.execPath,
      args: ["-e", "setTimeout(() => {}, 60_000)"],
      env: {},
    }
    await assert.rejects(
      startServer(sleeper, port, 1_500),
      /answered 404 "not found" within 1\.5 s/,
    )
  } finally {
    await close(impostor)
  }
})

test("a server that serves the app's robots.txt is ready", async () => {
  const port = await freePort()
  const robots = readFileSync(new URL("../static/robots.txt", import.meta.url), "utf8")
  const script = `require("node:http").createServer((q, s) => s.end(${JSON.stringify(robots)})).listen(${port}, "127.0.0.1")`
  const server = await startServer({ file: process.execPath, args: ["-e", script], env: {} }, port)
  try {
    const response = await fetch(`${server.url}/robots.txt`)
    assert.equal(await response.text(), robots)
  } finally {
    await server.stop()
  }
})

test("stopping a Deno server ends Deno itself: its port is free again", async (t) => {
  // npm's `deno` command is a Node.js wrapper that starts Deno as its child; a signal to the
  // wrapper would leave Deno serving, orphaned, after the check.
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), "latch-deploy-"))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const script = join(dir, "serve.ts")
  const robots = readFileSync(new URL("../static/robots.txt", import.meta.url), "utf8")
  writeFileSync(
    script,
    `Deno.serve({ hostname: "127.0.0.1", port: ${port} }, () => new Response(${JSON.stringify(robots)}))`,
  )
  const command = { file: denoBinary(), args: ["run", `--allow-net=127.0.0.1:${port}`, script] }
  const server = await startServer({ ...command, env: {} }, port)
  await server.stop()
  const again = await listen(createServer(), port)
  await close(again)
})
