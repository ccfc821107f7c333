// Starts a deployment's server on a free port of 127.0.0.1 and waits until it answers.
import { spawn } from "node:child_process"
import { createServer } from "node:net"

/** A port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

const READY_TIMEOUT_MS = 30_000

/**
 * Runs `command` (from targets.mjs) and resolves once GET / gets any answer: `{ url, log(),
 * stop() }`. Rejects with the log when the process exits or stays silent for 30 s.
 */
export async function startServer({ file, args, env, cleanEnv = false }, port) {
  const base = cleanEnv ? { PATH: process.env.PATH, HOME: process.env.HOME } : process.env
  const child = spawn(file, args, { env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  let exited = null
  child.on("exit", (code, signal) => (exited = signal ?? `code ${code}`))
  const url = `http://127.0.0.1:${port}`
  const server = {
    url,
    log: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (exited !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref()
      }),
  }
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`exited (${exited}) before answering:\n${output}`)
    try {
      await fetch(`${url}/robots.txt`, { signal: AbortSignal.timeout(2_000) })
      return server
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  await server.stop()
  throw new Error(`no answer on ${url} within ${READY_TIMEOUT_MS / 1000} s:\n${output}`)
}
