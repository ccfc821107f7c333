// Starts a deployment's server on a free port of 127.0.0.1 and waits until it answers.
import { spawn } from "node:child_process"
import { freePort } from "../../scripts/ports.mjs"

export { freePort }

const READY_TIMEOUT_MS = 30_000

/** A line of static/robots.txt, which every deployment serves. */
const ROBOTS_LINE = "Disallow: /protected"

/**
 * Runs `command` (from targets.mjs) and resolves once it serves static/robots.txt: `{ url, log(),
 * stop() }`. Rejects with the log when the process exits or does not serve it within
 * `readyTimeoutMs` (30 s).
 */
export async function startServer(
  { file, args, env, cleanEnv = false },
  port,
  readyTimeoutMs = READY_TIMEOUT_MS,
) {
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
        // SIGKILL for a server still running 5 s after SIGTERM (the timer keeps the check
        // alive until then: a server must not outlive the check).
        const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
        child.once("exit", () => {
          clearTimeout(kill)
          // A process it started itself may still hold the pipes: they are not waited for.
          child.stdout.destroy()
          child.stderr.destroy()
          resolve()
        })
        child.kill("SIGTERM")
      }),
  }
  const deadline = Date.now() + readyTimeoutMs
  let last = "no answer"
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`exited (${exited}) before answering:\n${output}`)
    try {
      // Our server's robots.txt, not any answer: a port is probed free before the server
      // binds it, and something else that took it meanwhile must not pass for the server.
      const response = await fetch(`${url}/robots.txt`, { signal: AbortSignal.timeout(2_000) })
      const body = await response.text()
      if (response.ok && body.includes(ROBOTS_LINE)) return server
      last = `answered ${response.status} ${JSON.stringify(body.slice(0, 80))}`
    } catch (error) {
      last = `no answer (${error.message})`
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await server.stop()
  throw new Error(`${url}/robots.txt: ${last} within ${readyTimeoutMs / 1000} s:\n${output}`)
}
