// A throwaway PostgreSQL server for the root scripts (`pnpm demo:two`, and through it the e2e
// tests of two demo instances): a cluster made with Debian's `initdb` in a temporary directory,
// its `postgres` run as a child of this process on 127.0.0.1 only, stopped and removed at the end.
//
// `postgres` runs as our child (not daemonised by `pg_ctl`), so that it shares our process group:
// whatever stops the group — Ctrl-C in a terminal, a test runner killing its server — stops the
// database too, and no cluster is left running behind a crashed script.
import { spawn, spawnSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { run } from "./lib.mjs"
import { freePort } from "./ports.mjs"

/** initdb refuses to run as root: a root shell gives the cluster to this system user (the
 * adapter's tests use the same one). */
const CLUSTER_USER = "latchtest"
const SUPERUSER = "latch"
const SBIN_PATH = `${process.env.PATH ?? ""}:/usr/local/sbin:/usr/sbin:/sbin`
const isRoot = () => process.getuid?.() === 0

/** The newest /usr/lib/postgresql/<version>/bin with initdb and postgres, or $PG_BIN. */
export function findPostgresBin() {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : []
  const root = "/usr/lib/postgresql"
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name))
    versions.sort((a, b) => Number(b) - Number(a))
    candidates.push(...versions.map((version) => join(root, version, "bin")))
  }
  return candidates.find((dir) =>
    ["initdb", "postgres", "pg_isready", "createdb"].every((file) => existsSync(join(dir, file))),
  )
}

/** Finds PostgreSQL's programs, installing Debian's `postgresql` package when they are missing. */
export function ensurePostgres() {
  const found = findPostgresBin()
  if (found) return found
  console.log("• installing Debian's postgresql package (for a throwaway database)")
  const apt = (...args) =>
    isRoot()
      ? run("apt-get", args, { env: { DEBIAN_FRONTEND: "noninteractive" } })
      : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args])
  apt("update")
  apt("install", "-y", "--no-install-recommends", "postgresql")
  const bin = findPostgresBin()
  if (!bin) {
    console.error(
      "✗ no /usr/lib/postgresql/*/bin/initdb after installing; set PG_BIN to its folder",
    )
    process.exit(1)
  }
  return bin
}

/** `{ uid, gid }` of the user who owns the cluster when we are root (created if missing). */
function clusterOwner() {
  if (!isRoot()) return undefined
  const id = (flag) => spawnSync("id", [flag, CLUSTER_USER], { encoding: "utf8" })
  if (id("-u").status !== 0) {
    run(
      "useradd",
      [
        "--system",
        "--user-group",
        "--no-create-home",
        "--shell",
        "/usr/sbin/nologin",
        CLUSTER_USER,
      ],
      {
        env: { PATH: SBIN_PATH },
      },
    )
  }
  return { uid: Number(id("-u").stdout.trim()), gid: Number(id("-g").stdout.trim()) }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Creates a cluster, starts it on 127.0.0.1 (`options.port`, or a free port) and creates the
 * database `options.database`. Resolves to its connection string and `stop()`, which shuts the
 * server down and removes the cluster. Exits the process with a message when it cannot start.
 * `stopServer()` and `startServer()` restart the server on the same data and port (the
 * reliability harness's database outage).
 *
 * @param {{ port?: number, database?: string }} [options]
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void>,
 *   stopServer: () => Promise<void>, startServer: () => Promise<void> }>}
 */
export async function startPostgres(options = {}) {
  const bin = ensurePostgres()
  const owner = clusterOwner()
  const dir = mkdtempSync(join(tmpdir(), "latch-demo-pg-"))
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, "data")
  const as = { ...owner, cwd: dir, env: { ...process.env, HOME: dir, LC_ALL: "C", LANG: "C" } }
  const removeCluster = () => rmSync(dir, { recursive: true, force: true })

  const initdb = spawnSync(
    join(bin, "initdb"),
    ["-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    { ...as, encoding: "utf8" },
  )
  if (initdb.status !== 0) {
    removeCluster()
    console.error(`✗ initdb failed:\n${initdb.stdout}${initdb.stderr}`)
    process.exit(1)
  }

  const port = options.port ?? (await freePort())
  let log = ""
  // The end of its output, for a message if it fails.
  const keep = (chunk) => (log = (log + chunk).slice(-10_000))
  /** @type {import("node:child_process").ChildProcess} */
  let server
  /** @type {Promise<unknown>} */
  let exited = Promise.resolve()
  let running = false
  // Trust authentication is safe only because nothing but this machine can connect: TCP on
  // 127.0.0.1, and the socket in our private directory. fsync off: the data is thrown away.
  const spawnServer = () => {
    server = spawn(
      join(bin, "postgres"),
      ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"].concat([
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
      ]),
      { ...as, stdio: ["ignore", "pipe", "pipe"] },
    )
    server.stdout.on("data", keep)
    server.stderr.on("data", keep)
    running = true
    exited = new Promise((resolve) => server.once("exit", resolve)).then(() => (running = false))
  }
  // The last resort, when the script exits without `stop()`: an immediate shutdown.
  const atExit = () => {
    if (running) server.kill("SIGQUIT")
    removeCluster()
  }
  process.once("exit", atExit)

  const fail = (what) => {
    atExit()
    console.error(`✗ PostgreSQL ${what} (port ${port}):\n${log.trim().slice(-3000)}`)
    process.exit(1)
  }
  const isReady = () =>
    spawnSync(join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port)]).status === 0
  const waitUntilReady = async () => {
    for (let waited = 0; !isReady(); waited += 100) {
      if (!running) fail("exited at start-up")
      if (waited > 30_000) fail("did not accept connections within 30 s")
      await sleep(100)
    }
  }
  spawnServer()
  await waitUntilReady()
  const database = options.database ?? "latch_demo"
  const createdb = spawnSync(
    join(bin, "createdb"),
    ["-h", "127.0.0.1", "-p", String(port), "-U", SUPERUSER, database],
    { encoding: "utf8" },
  )
  if (createdb.status !== 0) fail(`createdb failed: ${createdb.stderr}`)

  return {
    url: `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`,
    port,
    async stop() {
      process.off("exit", atExit)
      // A fast shutdown: clients are disconnected, the server exits at once.
      if (running) server.kill("SIGINT")
      await exited
      removeCluster()
    },
    /** Stops the server (a fast shutdown, as `stop()`) but keeps the cluster, for a restart. */
    async stopServer() {
      if (running) server.kill("SIGINT")
      await exited
    },
    /** Starts the server again on the same cluster and port; resolves once it accepts. */
    async startServer() {
      if (running) return
      spawnServer()
      await waitUntilReady()
    },
  }
}
