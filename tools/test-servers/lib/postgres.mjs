// A throwaway PostgreSQL server from Debian's `postgresql` package: a cluster in a temporary
// directory, owned by an unprivileged system user when we are root (initdb refuses root),
// listening on 127.0.0.1 and on a socket in that directory only, removed at the end.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { chown, rm } from "node:fs/promises"
import { join } from "node:path"
import pg from "pg"
import { cleanUpAtExit, freePort, isRoot, run, tempDir } from "./process.mjs"

const SUPERUSER = "latch" // the cluster's superuser: trust authentication, reachable locally only

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, pg_ctl and postgres, or $PG_BIN. */
export function findPostgresBin() {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : []
  const root = "/usr/lib/postgresql"
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name))
    versions.sort((a, b) => Number(b) - Number(a))
    candidates.push(...versions.map((version) => join(root, version, "bin")))
  }
  return candidates.find((dir) =>
    ["initdb", "pg_ctl", "postgres"].every((file) => existsSync(join(dir, file))),
  )
}

/** `{ uid, gid }` of the cluster's owner when we are root (created if need be), else undefined. */
async function clusterOwner(systemUser) {
  if (!isRoot()) return undefined
  const id = (flag) => spawnSync("id", [flag, systemUser], { encoding: "utf8" })
  if (id("-u").status !== 0) {
    const args = ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin"]
    // Exit code 9: another process created it in the meantime.
    await run("useradd", [...args, systemUser], { okCodes: [9] })
  }
  const uid = Number(id("-u").stdout.trim())
  const gid = Number(id("-g").stdout.trim())
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`PostgreSQL: cannot find the uid and gid of the user ${systemUser}`)
  }
  return { uid, gid }
}

/**
 * Finds PostgreSQL's binaries, installing Debian's package with apt-get (or `sudo -n apt-get`)
 * when they are missing, and prepares the clusters' owner. Nothing is skipped: when PostgreSQL
 * cannot be had, this throws and says why.
 */
export async function ensurePostgres({ systemUser = "latchtest" } = {}) {
  let bin = findPostgresBin()
  if (!bin) {
    const aptGet = (...args) =>
      isRoot()
        ? run("apt-get", args, { env: { DEBIAN_FRONTEND: "noninteractive" } })
        : run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args])
    try {
      await aptGet("update")
      await aptGet("install", "-y", "--no-install-recommends", "postgresql")
    } catch (error) {
      throw new Error(
        "PostgreSQL: initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin (PG_BIN " +
          `may name their directory), and installing Debian's postgresql package failed:\n${error.message}`,
      )
    }
    bin = findPostgresBin()
    if (!bin) {
      throw new Error(
        "PostgreSQL: Debian's postgresql package is installed but no " +
          "/usr/lib/postgresql/*/bin/initdb was found; set PG_BIN to the directory of initdb",
      )
    }
  }
  await clusterOwner(systemUser)
  return bin
}

/** Creates, starts and returns a throwaway cluster with an empty database. */
export async function startPostgres({
  database = "latch_test",
  systemUser = "latchtest",
  signals = false,
} = {}) {
  const bin = await ensurePostgres({ systemUser })
  const owner = await clusterOwner(systemUser)
  const dir = await tempDir("latch-pg-")
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  const as = { owner, cwd: dir, env: { HOME: dir, LC_ALL: "C", LANG: "C" } }
  const pgCtl = join(bin, "pg_ctl")
  let port = 0
  let running = false

  const forget = cleanUpAtExit(
    () => {
      if (running) {
        const options = { stdio: "ignore", ...(owner ?? {}) }
        spawnSync(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], options)
      }
    },
    dir,
    { signals },
  )
  const serverLog = () => (existsSync(log) ? readFileSync(log, "utf8").trim().slice(-4000) : "")
  const failed = async (what, error) => {
    const logged = serverLog()
    if (running) await run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], as).catch(() => {})
    forget()
    await rm(dir, { recursive: true, force: true })
    return new Error(
      `PostgreSQL: ${what} failed (binaries in ${bin}).\n${error.message}` +
        (logged ? `\n--- server log ---\n${logged}` : ""),
    )
  }

  const start = async () => {
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      // A throwaway cluster: durability is beside the point, start-up and write speed are not.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ")
    await run(pgCtl, ["-D", data, "-l", log, "-w", "-t", "30", "-o", options, "start"], as)
    running = true
  }

  try {
    if (owner) await chown(dir, owner.uid, owner.gid)
    const initdb = ["-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale"]
    await run(join(bin, "initdb"), [...initdb, "--no-sync"], as)
  } catch (error) {
    throw await failed("initdb", error)
  }

  // A port found free may be taken before the server binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    try {
      await start()
      break
    } catch (error) {
      if (attempt === 3) throw await failed("starting the server", error)
    }
  }

  const host = "127.0.0.1"
  const url = (name) => `postgresql://${SUPERUSER}@${host}:${port}/${name}`
  const createDatabase = async (name) => {
    const admin = new pg.Client({ connectionString: url("postgres") })
    await admin.connect()
    try {
      await admin.query(`create database "${name.replaceAll('"', '""')}"`)
    } finally {
      await admin.end()
    }
    return url(name)
  }
  try {
    await createDatabase(database)
  } catch (error) {
    throw await failed("creating the database", error)
  }

  return {
    host,
    port,
    user: SUPERUSER,
    database,
    connectionString: url(database),
    binDir: bin,
    createDatabase,
    async start() {
      try {
        await start()
      } catch (error) {
        throw new Error(
          `PostgreSQL: restarting the server failed.\n${error.message}\n` +
            `--- server log ---\n${serverLog()}`,
        )
      }
    },
    async stop() {
      await run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as)
      running = false
    },
    async destroy() {
      if (running) {
        await run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as).catch(() =>
          run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], as).catch(() => {}),
        )
        running = false
      }
      forget()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
