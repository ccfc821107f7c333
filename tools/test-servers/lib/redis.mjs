// A throwaway Redis: Debian's `redis-server` on a free port of 127.0.0.1, with no persistence
// (`--save ''`, `--appendonly no`), which can be stopped (as a crash) and started again on the
// same port, and is killed at the end.
import { spawn } from "node:child_process"
import { cleanUpAtExit, freePort, stopChild, which } from "./process.mjs"

/** The path of `redis-server`; throws, saying what to install, when it is missing. */
export function ensureRedisServer() {
  const path = which("redis-server")
  if (!path) {
    throw new Error(
      "Redis: `redis-server` is not on the PATH (Redis 7 is needed). Install it with " +
        "`apt-get install -y --no-install-recommends redis-server` (Debian/Ubuntu), or any " +
        "Redis 7 / Valkey build that provides `redis-server`.",
    )
  }
  return path
}

/** Starts redis-server on `port`; resolves once it accepts connections. */
function launch(binary, port) {
  const child = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  )
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`Redis: redis-server did not start on port ${port}:\n${output}`))
    }, 10_000)
    child.stdout.on("data", (data) => {
      output += data
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer)
        child.stdout.removeAllListeners("data")
        child.stdout.resume()
        resolve(child)
      }
    })
    child.stderr.on("data", (data) => (output += data))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`Redis: redis-server exited (${code}) on port ${port}:\n${output}`))
    })
  })
}

export async function startRedis({ signals = false } = {}) {
  const binary = ensureRedisServer()
  const port = await freePort()
  let child = await launch(binary, port)
  const forget = cleanUpAtExit(() => child?.kill("SIGKILL"), undefined, { signals })
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopChild(child, "SIGKILL")
      child = undefined
    },
    async start() {
      if (!child) child = await launch(binary, port)
    },
    async destroy() {
      forget()
      await stopChild(child, "SIGTERM")
      child = undefined
    },
  }
}
