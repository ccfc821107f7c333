/**
 * A throwaway PostgreSQL server for the tests, from Debian's `postgresql` package: a cluster in
 * a temporary directory, owned by an unprivileged user (initdb refuses root), listening on
 * 127.0.0.1 and on a socket in that directory only, removed at the end.
 *
 * `ensurePostgres()` (run once, from the vitest global setup) finds `initdb` and `pg_ctl` under
 * /usr/lib/postgresql/<version>/bin, or installs the package with apt-get when they are missing,
 * and creates the system user `latchtest` when running as root. `startPostgres()` then makes a
 * cluster per test file. Nothing is skipped: when PostgreSQL cannot be had, this throws.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { chown, mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

const USER = "latchtest"
const SUPERUSER = "latch"
const DATABASE = "latch_test"
const SBIN_PATH = `${process.env.PATH ?? ""}:/usr/local/sbin:/usr/sbin:/sbin`

interface Owner {
  uid: number
  gid: number
}

interface RunOptions {
  owner?: Owner | undefined
  cwd?: string
  env?: Record<string, string>
  /** Exit codes that count as success besides 0. */
  okCodes?: number[]
}

/** Runs a command; rejects with its output when it fails. Waits for the process to exit (not
 * for its pipes to close: `pg_ctl start` leaves a server running). */
function run(command: string, args: string[], options: RunOptions = {}) {
  return new Promise<{ stdout: string; code: number }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, PATH: SBIN_PATH, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.owner ? { uid: options.owner.uid, gid: options.owner.gid } : {}),
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", (error) => reject(new Error(`cannot run ${command}: ${error.message}`)))
    child.on("exit", (code, signal) => {
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) {
        resolve({ stdout: output, code })
      } else {
        const how = signal ? `signal ${signal}` : `exit code ${code}`
        reject(new Error(`${command} ${args.join(" ")} failed (${how}):\n${output.trim()}`))
      }
    })
  })
}

const isRoot = () => process.getuid?.() === 0

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl (or $PG_BIN). */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = []
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN)
  const root = "/usr/lib/postgresql"
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a))
    candidates.push(...versions.map((version) => join(root, version, "bin")))
  }
  return candidates.find((dir) =>
    ["initdb", "pg_ctl", "postgres"].every((f) => existsSync(join(dir, f))),
  )
}

/** `uid`/`gid` of the unprivileged user that owns the clusters when we are root; creates it. */
async function clusterOwner(): Promise<Owner | undefined> {
  if (!isRoot()) return undefined
  const lookup = () => spawnSync("id", ["-u", USER], { encoding: "utf8" })
  if (lookup().status !== 0) {
    // Exit code 9: another test file created it in the meantime.
    await run(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
      { okCodes: [9] },
    )
  }
  const uid = Number(spawnSync("id", ["-u", USER], { encoding: "utf8" }).stdout.trim())
  const gid = Number(spawnSync("id", ["-g", USER], { encoding: "utf8" }).stdout.trim())
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`PostgreSQL tests: cannot find the uid of the user ${USER}`)
  }
  return { uid, gid }
}

/** Finds PostgreSQL, installing Debian's package if needed, and prepares the cluster owner. */
export async function ensurePostgres(): Promise<string> {
  let bin = findPostgresBin()
  if (!bin) {
    const install = async (...args: string[]) =>
      isRoot()
        ? run("apt-get", args, { env: { DEBIAN_FRONTEND: "noninteractive" } })
        : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args])
    try {
      await install("update")
      await install("install", "-y", "--no-install-recommends", "postgresql")
    } catch (error) {
      throw new Error(
        "PostgreSQL tests: initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin, " +
          `and installing Debian's postgresql package failed:\n${(error as Error).message}`,
      )
    }
    bin = findPostgresBin()
    if (!bin) {
      throw new Error(
        "PostgreSQL tests: Debian's postgresql package is installed but no " +
          "/usr/lib/postgresql/*/bin/initdb was found; set PG_BIN to the directory of initdb",
      )
    }
  }
  await clusterOwner()
  return bin
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      )
    })
  })
}

export interface PostgresServer {
  host: string
  port: number
  user: string
  database: string
  connectionString: string
  /** `pg_ctl stop -m fast`: connections are closed, the data stays. */
  stop(): Promise<void>
  /** Starts the stopped server again, on the same port. */
  start(): Promise<void>
  /** Creates another empty database on this server; returns its connection string. */
  createDatabase(name: string): Promise<string>
  /** Stops the server and removes the cluster. */
  destroy(): Promise<void>
}

/** Creates, starts and returns a throwaway cluster with an empty database `latch_test`. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = await ensurePostgres()
  const owner = await clusterOwner()
  const dir = await mkdtemp(join(tmpdir(), "latch-pg-"))
  if (owner) await chown(dir, owner.uid, owner.gid)
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  const as = { owner, cwd: dir, env: { HOME: dir, LC_ALL: "C", LANG: "C" } }
  const pgCtl = join(bin, "pg_ctl")
  let port = 0
  let running = false

  const readLog = () => (existsSync(log) ? readFileSync(log, "utf8").trim().slice(-4000) : "")
  const failed = (what: string, error: unknown) =>
    new Error(
      `PostgreSQL tests: ${what} failed (binaries in ${bin}, cluster in ${dir}).\n` +
        `${(error as Error).message}\n--- server log ---\n${readLog()}`,
    )

  const stopAtExit = () => {
    if (running)
      spawnSync(pgCtl, ["-D", data, "-m", "immediate", "stop"], {
        stdio: "ignore",
        ...(owner ?? {}),
      })
  }
  process.once("exit", stopAtExit)

  const start = async () => {
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ")
    await run(pgCtl, ["-D", data, "-l", log, "-w", "-t", "30", "-o", options, "start"], as)
    running = true
  }

  try {
    await run(
      join(bin, "initdb"),
      ["-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
      as,
    )
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw failed("initdb", error)
  }

  // A port found free may be taken before the server binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    try {
      await start()
      break
    } catch (error) {
      if (attempt === 3) {
        const err = failed("starting the server", error)
        await rm(dir, { recursive: true, force: true })
        throw err
      }
    }
  }

  const host = "127.0.0.1"
  const url = (database: string) => `postgresql://${SUPERUSER}@${host}:${port}/${database}`
  const createDatabase = async (name: string) => {
    const admin = new pg.Client({ connectionString: url("postgres") })
    await admin.connect()
    try {
      await admin.query(`create database "${name.replaceAll('"', '""')}"`)
    } finally {
      await admin.end()
    }
    return url(name)
  }
  await createDatabase(DATABASE)

  return {
    host,
    port,
    user: SUPERUSER,
    database: DATABASE,
    connectionString: url(DATABASE),
    createDatabase,
    start: async () => {
      try {
        await start()
      } catch (error) {
        throw failed("restarting the server", error)
      }
    },
    stop: async () => {
      await run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as)
      running = false
    },
    destroy: async () => {
      if (running) {
        await run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as).catch(() => stopAtExit())
        running = false
      }
      process.off("exit", stopAtExit)
      await rm(dir, { recursive: true, force: true })
    },
  }
}
