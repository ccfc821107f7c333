// A throwaway PostgreSQL server for the benchmarks, from Debian's `postgresql` package: a cluster
// in a temporary directory, listening on 127.0.0.1 and on a socket in that directory only, owned
// by an unprivileged system user when we are root (initdb refuses root), stopped and removed by
// `destroy()` — or, should the process end first, stopped at exit or on SIGINT/SIGTERM.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { chown, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { BenchError, freePort } from "./common.mjs"

const OWNER = "latchbench" // the system user owning the cluster when we are root
const SUPERUSER = "latch" // the cluster's superuser (trust authentication, local only)
const DATABASE = "latch_bench"
const PATH = `${process.env.PATH ?? ""}:/usr/local/sbin:/usr/sbin:/sbin`

const isRoot = () => process.getuid?.() === 0

/**
 * Runs a command and resolves with its output once it exits (not once its pipes close:
 * `pg_ctl start` leaves a server behind that may hold them). Rejects with the output otherwise.
 */
function run(command, args, { owner, cwd, env, okCodes = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", (error) => reject(new Error(`cannot run ${command}: ${error.message}`)))
    child.on("exit", (code, signal) => {
      if (code === 0 || okCodes.includes(code)) return resolve(output)
      const how = signal ? `signal ${signal}` : `exit code ${code}`
      reject(new Error(`${command} ${args.join(" ")} failed (${how}):\n${output.trim()}`))
    })
  })
}

/** The directory of `initdb`, `pg_ctl` and `postgres`: $PG_BIN, else the newest version's. */
function findBin() {
  const dirs = process.env.PG_BIN ? [process.env.PG_BIN] : []
  const root = "/usr/lib/postgresql"
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name))
    versions.sort((a, b) => Number(b) - Number(a))
    dirs.push(...versions.map((version) => join(root, version, "bin")))
  }
  return dirs.find((dir) => ["initdb", "pg_ctl", "postgres"].every((f) => existsSync(join(dir, f))))
}

/** Finds PostgreSQL's binaries, installing Debian's package with apt-get when they are missing. */
async function ensureBin() {
  const found = findBin()
  if (found) return found
  console.log("PostgreSQL not found: installing Debian's postgresql package (apt-get)…")
  const aptGet = (...args) =>
    isRoot()
      ? run("apt-get", args, { env: { DEBIAN_FRONTEND: "noninteractive" } })
      : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args])
  try {
    await aptGet("update")
    await aptGet("install", "-y", "--no-install-recommends", "postgresql")
  } catch (error) {
    throw new BenchError(
      "no initdb/pg_ctl under /usr/lib/postgresql/*/bin (set PG_BIN to their directory), and " +
        `installing Debian's postgresql package failed:\n${error.message}`,
    )
  }
  const installed = findBin()
  if (!installed)
    throw new BenchError("postgresql installed, but no /usr/lib/postgresql/*/bin/initdb")
  return installed
}

/** `{ uid, gid }` of the unprivileged owner of the cluster when we are root (created if need
 * be); `undefined` otherwise: the cluster then belongs to whoever runs the benchmark. */
async function clusterOwner() {
  if (!isRoot()) return undefined
  const id = (flag) => spawnSync("id", [flag, OWNER], { encoding: "utf8" })
  if (id("-u").status !== 0) {
    const args = ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin"]
    await run("useradd", [...args, OWNER], { okCodes: [9] }) // 9: it exists after all
  }
  const uid = Number(id("-u").stdout.trim())
  const gid = Number(id("-g").stdout.trim())
  if (!Number.isInteger(uid) || !Number.isInteger(gid))
    throw new BenchError(`cannot find the uid and gid of the user ${OWNER}`)
  return { uid, gid }
}

/**
 * Creates and starts a cluster with an empty database. Returns its `connectionString`, the
 * `binDir` it runs from, and `destroy()`, which stops it and removes its directory.
 */
export async function startPostgres() {
  const binDir = await ensureBin()
  const owner = await clusterOwner()
  const dir = await mkdtemp(join(tmpdir(), "latch-bench-pg-"))
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  const as = { owner, cwd: dir, env: { HOME: dir, LC_ALL: "C", LANG: "C" } }
  const pgCtl = join(binDir, "pg_ctl")
  let running = false

  // Should the process end before `destroy()`: stop the server at once, remove its directory.
  const stopNow = () => {
    if (running) {
      const options = { stdio: "ignore", ...(owner ?? {}) }
      spawnSync(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], options)
      running = false
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const onSignal = (signal) => {
    stopNow()
    process.kill(process.pid, signal) // the listener is gone (`once`): the default action
  }
  process.once("exit", stopNow)
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  const forget = () => {
    process.off("exit", stopNow)
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }

  const failed = async (what, error) => {
    const serverLog = existsSync(log) ? readFileSync(log, "utf8").trim().slice(-4000) : ""
    stopNow()
    forget()
    return new BenchError(
      `PostgreSQL: ${what} failed (binaries in ${binDir}).\n${error.message}` +
        (serverLog ? `\n--- server log ---\n${serverLog}` : ""),
    )
  }

  try {
    if (owner) await chown(dir, owner.uid, owner.gid)
    const initdb = ["-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale"]
    await run(join(binDir, "initdb"), [...initdb, "--no-sync"], as)
  } catch (error) {
    throw await failed("initdb", error)
  }

  let port
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      // Durability is beside the point of a throwaway cluster; the benchmark only reads.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ")
    try {
      await run(pgCtl, ["-D", data, "-l", log, "-w", "-t", "30", "-o", options, "start"], as)
      running = true
      break
    } catch (error) {
      if (attempt === 3) throw await failed("starting the server", error)
    }
  }

  const url = (database) => `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`
  try {
    const admin = new pg.Client({ connectionString: url("postgres") })
    await admin.connect()
    try {
      await admin.query(`create database ${DATABASE}`)
    } finally {
      await admin.end()
    }
  } catch (error) {
    throw await failed("creating the database", error)
  }

  return {
    binDir,
    connectionString: url(DATABASE),
    async destroy() {
      if (running) {
        try {
          await run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as)
          running = false
        } catch {
          stopNow()
        }
      }
      forget()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
