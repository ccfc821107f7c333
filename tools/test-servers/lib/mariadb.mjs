// A throwaway MariaDB server from Debian's `mariadb-server` package: a data directory made by
// `mariadb-install-db` in a temporary directory, a server on 127.0.0.1 and on a socket there,
// without grant tables (nothing else can reach it), killed and removed at the end.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { mkdir, rm } from "node:fs/promises"
import { userInfo } from "node:os"
import { join } from "node:path"
import mysql from "mysql2/promise"
import { cleanUpAtExit, ended, freePort, SBIN_PATH, stopChild, tempDir, which } from "./process.mjs"

/** The server and installer binaries; throws, naming Debian's package, when they are missing. */
export function findMariadb() {
  const server = which("mariadbd") ?? which("mysqld")
  const install = which("mariadb-install-db") ?? which("mysql_install_db")
  if (!server || !install) {
    throw new Error(
      "MariaDB: mariadbd and mariadb-install-db were not found; install Debian's " +
        "mariadb-server package (apt-get install -y --no-install-recommends mariadb-server)",
    )
  }
  return { server, install }
}

/** Creates, starts and returns a throwaway server with an empty database. */
export async function startMariadb({ database = "latch_test", signals = false } = {}) {
  const bin = findMariadb()
  const dir = await tempDir("latch-mariadb-")
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  // Its own directory for temporary tables, not the system's /tmp: there, other work on the
  // machine (another server's installer, a cleaner) can remove a file the installer still holds,
  // and the install fails ("Error on delete of '/tmp/#sql-temptable-…'").
  const tmp = join(dir, "tmp")
  await mkdir(tmp)
  const user = userInfo().username
  const readLog = () => (existsSync(log) ? readFileSync(log, "utf8").trim().slice(-3000) : "")

  const installed = spawnSync(
    bin.install,
    [
      "--no-defaults",
      "--auth-root-authentication-method=normal",
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      `--user=${user}`,
      "--skip-test-db",
    ],
    { encoding: "utf8", env: { ...process.env, PATH: SBIN_PATH } },
  )
  if (installed.status !== 0) {
    await rm(dir, { recursive: true, force: true })
    throw new Error(`MariaDB: mariadb-install-db failed:\n${installed.stdout}${installed.stderr}`)
  }

  const port = await freePort()
  const child = spawn(
    bin.server,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      `--socket=${join(dir, "mysqld.sock")}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      "--skip-grant-tables",
      `--user=${user}`,
      `--log-error=${log}`,
      `--pid-file=${join(dir, "mysqld.pid")}`,
      // A throwaway database: durability is not the point, start-up and write speed are.
      "--innodb-flush-log-at-trx-commit=0",
      "--innodb-buffer-pool-size=32M",
      "--innodb-log-file-size=16M",
      "--skip-log-bin",
      "--max-connections=200",
    ],
    { stdio: "ignore" },
  )
  const forget = cleanUpAtExit(() => child.kill("SIGKILL"), dir, { signals })
  const exited = () =>
    ended(child) ? `exit code ${child.exitCode}, signal ${child.signalCode}` : ""

  const uri = (name = "") => `mysql://root@127.0.0.1:${port}/${name}`
  const name = database.replaceAll("`", "``")
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      const connection = await mysql.createConnection(uri())
      await connection.query(`create database if not exists \`${name}\``)
      await connection.end()
      break
    } catch (error) {
      if (exited() || Date.now() > deadline) {
        await stopChild(child, "SIGKILL")
        const why = exited() ? `the server stopped (${exited()})` : error.message
        const logged = readLog()
        forget()
        await rm(dir, { recursive: true, force: true })
        throw new Error(`MariaDB: the server did not start: ${why}\n${logged}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  return {
    uri: uri(database),
    port,
    async destroy() {
      forget()
      await stopChild(child, "SIGKILL")
      await rm(dir, { recursive: true, force: true })
    },
  }
}
