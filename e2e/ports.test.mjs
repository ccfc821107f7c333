// The suite's port choice (ports.mjs), against real listeners: a foreign server on one of the
// ports is never taken for the suite's own. Run by `npm test` before the suite (node --test).
import assert from "node:assert/strict"
import { createServer } from "node:net"
import { after, test } from "node:test"
import { chooseBase, PORTS, takenPort } from "./ports.mjs"

const servers = []
after(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))))

/** A foreign server on `port` at `host`; resolves once it listens (false: no such host here). */
function listen(port, host) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen({ port, host }, () => {
      servers.push(server)
      resolve(true)
    })
  })
}

/** A block of ports nothing listens on (a random one when that block is taken). */
const freeBlock = () => chooseBase(undefined, 30_000 + PORTS * Math.floor(Math.random() * 1_000))

test("E2E_PORT_BASE with a foreign server on one of its ports is refused, naming the port", async () => {
  const base = await freeBlock()
  assert.equal(await chooseBase(String(base)), base)
  assert.ok(await listen(base + 3, "127.0.0.1"))
  await assert.rejects(chooseBase(String(base)), new RegExp(`port ${base + 3} .* taken`))
})

test("a server listening on ::1 alone counts as taken (the browser opens localhost)", async (t) => {
  const base = await freeBlock()
  if (!(await listen(base + PORTS - 1, "::1"))) {
    // No IPv6 loopback on this machine: nothing can listen there, and the check of 127.0.0.1
    // is the whole check. Assert that instead of passing vacuously.
    assert.equal(await takenPort(base), undefined)
    t.diagnostic("no ::1 here; checked 127.0.0.1 only")
    return
  }
  assert.equal(await takenPort(base), base + PORTS - 1)
})

test("without E2E_PORT_BASE, a taken preferred block gives another block that is free", async () => {
  const preferred = await freeBlock()
  assert.ok(await listen(preferred, "127.0.0.1"))
  const chosen = await chooseBase(undefined, preferred)
  assert.notEqual(chosen, preferred)
  assert.equal(await takenPort(chosen), undefined)
})

test("a base that is not a port is refused", async () => {
  await assert.rejects(chooseBase("abc"), /not a port/)
  await assert.rejects(chooseBase("65530"), /not a port/)
})
