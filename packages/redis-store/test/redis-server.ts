/**
 * A throwaway Redis for the tests: Debian's `redis-server` on a free port of 127.0.0.1, with no
 * persistence (`--save ''`, `--appendonly no`), stopped and started again on the same port when
 * a test needs Redis to go away, and killed at the end.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createServer } from "node:net"

export interface RedisServer {
  url: string
  port: number
  /** Stops the server (SIGKILL: no goodbye to the clients, as a crash). */
  stop(): Promise<void>
  /** Starts it again on the same port, empty. */
  start(): Promise<void>
  destroy(): Promise<void>
}

/** Fails the run with what to install when `redis-server` is missing. */
export function ensureRedisServer(): string {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" })
  const path = found.stdout.trim()
  if (found.status !== 0 || !path) {
    throw new Error(
      "@latch/redis-store tests need Redis 7: `redis-server` is not on the PATH. Install it " +
        "with `apt-get install -y --no-install-recommends redis-server` (Debian/Ubuntu), or " +
        "any Redis 7 / Valkey build that provides `redis-server`.",
    )
  }
  return path
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  )
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`redis-server did not start on port ${port}:\n${output}`))
    }, 10_000)
    const onData = (data: Buffer) => {
      output += data.toString()
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer)
        child.stdout!.removeAllListeners("data")
        child.stdout!.resume()
        resolve(child)
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (data: Buffer) => (output += data.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited (${code}) on port ${port}:\n${output}`))
    })
  })
}

function kill(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once("exit", () => resolve())
    child.kill(signal)
  })
}

export async function startRedis(): Promise<RedisServer> {
  const binary = ensureRedisServer()
  const port = await freePort()
  let child: ChildProcess | undefined = await launch(binary, port)
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await kill(child, "SIGKILL")
      child = undefined
    },
    async start() {
      if (!child) child = await launch(binary, port)
    },
    async destroy() {
      await kill(child, "SIGTERM")
      child = undefined
    },
  }
}
