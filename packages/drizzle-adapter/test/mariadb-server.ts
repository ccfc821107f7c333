/**
 * A throwaway MariaDB server for the tests, from Debian's `mariadb-server` package: a data
 * directory made by `mariadb-install-db` in a temporary directory, a server on 127.0.0.1 and on a
 * socket there, without grant tables (nothing else can reach it), killed and removed at the end.
 * Nothing is skipped: when the binaries are missing, this throws and says which package to add.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import mysql from "mysql2/promise"

const SBIN_PATH = `${process.env.PATH ?? ""}:/usr/local/sbin:/usr/sbin:/sbin`

/** The path of `name` on PATH (with the sbin directories), or undefined. */
function which(name: string): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], {
    encoding: "utf8",
    env: { ...process.env, PATH: SBIN_PATH },
  })
  return found.status === 0 ? found.stdout.trim() : undefined
}

/** The server and installer binaries; throws a clear error when Debian's package is missing. */
export function findMariadb(): { server: string; install: string } {
  const server = which("mariadbd") ?? which("mysqld")
  const install = which("mariadb-install-db") ?? which("mysql_install_db")
  if (!server || !install) {
    throw new Error(
      "MariaDB tests: mariadbd and mariadb-install-db were not found; install Debian's " +
        "mariadb-server package (apt-get install -y --no-install-recommends mariadb-server)",
    )
  }
  return { server, install }
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

export interface MariadbServer {
  /** `mysql://root@127.0.0.1:<port>/latch_test` */
  uri: string
  destroy(): Promise<void>
}

/** Creates, starts and returns a throwaway server with an empty database `latch_test`. */
export async function startMariadb(): Promise<MariadbServer> {
  const bin = findMariadb()
  const dir = await mkdtemp(join(tmpdir(), "latch-mariadb-"))
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  const user = userInfo().username
  const readLog = () => (existsSync(log) ? readFileSync(log, "utf8").trim().slice(-3000) : "")

  const installed = spawnSync(
    bin.install,
    [
      "--no-defaults",
      "--auth-root-authentication-method=normal",
      `--datadir=${data}`,
      `--user=${user}`,
      "--skip-test-db",
    ],
    { encoding: "utf8", env: { ...process.env, PATH: SBIN_PATH } },
  )
  if (installed.status !== 0) {
    await rm(dir, { recursive: true, force: true })
    throw new Error(
      `MariaDB tests: mariadb-install-db failed:\n${installed.stdout}${installed.stderr}`,
    )
  }

  const port = await freePort()
  const child: ChildProcess = spawn(
    bin.server,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--socket=${join(dir, "mysqld.sock")}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      "--skip-grant-tables",
      `--user=${user}`,
      `--log-error=${log}`,
      `--pid-file=${join(dir, "mysqld.pid")}`,
      // A test database: durability is not the point, start-up and write speed are.
      "--innodb-flush-log-at-trx-commit=0",
      "--innodb-buffer-pool-size=32M",
      "--innodb-log-file-size=16M",
      "--skip-log-bin",
      "--max-connections=200",
    ],
    { stdio: "ignore" },
  )
  const kill = () => child.kill("SIGKILL")
  process.once("exit", kill)
  let exited: string | undefined
  child.on("exit", (code, signal) => (exited = `exit code ${code}, signal ${signal}`))

  const uri = (database = "") => `mysql://root@127.0.0.1:${port}/${database}`
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      const connection = await mysql.createConnection(uri())
      await connection.query("create database if not exists latch_test")
      await connection.end()
      break
    } catch (error) {
      if (exited || Date.now() > deadline) {
        kill()
        const why = exited ? `the server stopped (${exited})` : (error as Error).message
        const logged = readLog()
        await rm(dir, { recursive: true, force: true })
        throw new Error(`MariaDB tests: the server did not start: ${why}\n${logged}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  return {
    uri: uri("latch_test"),
    destroy: async () => {
      process.off("exit", kill)
      if (!exited) {
        const gone = new Promise((resolve) => child.once("exit", resolve))
        child.kill("SIGKILL")
        await gone
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}
