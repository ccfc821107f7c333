// A server must not outlive the process that started it: a test run that fails before its
// `destroy()`, or a benchmark that throws, leaves no server behind (children do not die with
// their parent on their own).
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"

const index = new URL("../index.mjs", import.meta.url).href

/** Runs `body` in a fresh node process that exits without destroying; returns what it printed. */
function runAndExit(body) {
  const script = `import * as servers from ${JSON.stringify(index)}\n${body}\nprocess.exit(0)\n`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (data) => (out += data))
    child.stderr.on("data", (data) => (err += data))
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}: ${err}`)),
    )
  })
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

describe("a server whose process exits before destroy()", () => {
  it("redis-server is killed", async () => {
    const { port, reachable } = await runAndExit(`
      const server = await servers.startRedis()
      const { connect } = await import("node:net")
      const reachable = await new Promise((resolve) => {
        const socket = connect(server.port, "127.0.0.1")
        socket.once("connect", () => (socket.destroy(), resolve(true)))
        socket.once("error", () => resolve(false))
      })
      console.log(JSON.stringify({ port: server.port, reachable }))`)
    expect(reachable).toBe(true)
    // SIGKILL is sent at exit; give the kernel a moment to close the socket.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await listening(port)).toBe(false)
  })

  it("the PostgreSQL cluster is stopped and its directory removed", async () => {
    const { port, dir } = await runAndExit(`
      const server = await servers.startPostgres()
      const pg = (await import("pg")).default
      const client = new pg.Client({ connectionString: server.connectionString })
      await client.connect()
      const { rows } = await client.query("show data_directory")
      await client.end()
      console.log(JSON.stringify({ port: server.port, dir: rows[0].data_directory }))`)
    expect(dir).toMatch(/latch-pg-/)
    expect(await listening(port)).toBe(false)
    expect(existsSync(dir)).toBe(false)
  }, 60_000)

  it("the MariaDB server is killed and its directory removed", async () => {
    const { port, dir } = await runAndExit(`
      const server = await servers.startMariadb()
      const mysql = (await import("mysql2/promise")).default
      const connection = await mysql.createConnection(server.uri)
      const [rows] = await connection.query("select @@datadir as dir")
      await connection.end()
      console.log(JSON.stringify({ port: server.port, dir: rows[0].dir }))`)
    expect(dir).toMatch(/latch-mariadb-/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await listening(port)).toBe(false)
    expect(existsSync(dir)).toBe(false)
  }, 60_000)
})
