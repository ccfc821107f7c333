// What the three servers share: a free port on 127.0.0.1, a temporary directory, running a
// command to its exit, waiting for a child to exit, and stopping what is left when the process
// ends before `destroy()`.
import { spawn, spawnSync } from "node:child_process"
import { rmSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

// Ports below the ephemeral range: see scripts/ports.mjs.
export { freePort } from "../../../scripts/ports.mjs"

/** PATH with the sbin directories: Debian puts `mariadbd` and `useradd` there. */
export const SBIN_PATH = `${process.env.PATH ?? ""}:/usr/local/sbin:/usr/sbin:/sbin`

export const isRoot = () => process.getuid?.() === 0

/** The path of the command `name` (sbin directories included), or undefined. */
export function which(name) {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], {
    encoding: "utf8",
    env: { ...process.env, PATH: SBIN_PATH },
  })
  const path = found.stdout?.trim()
  return found.status === 0 && path ? path : undefined
}

/** A new empty directory under the system's temporary directory. */
export const tempDir = (prefix) => mkdtemp(join(tmpdir(), prefix))

/**
 * Runs a command and resolves with its output once it exits — not once its pipes close:
 * `pg_ctl start` leaves a server behind that may hold them. Rejects with the output otherwise.
 * `owner` runs it as that `{ uid, gid }`; `okCodes` are exit codes that count as success.
 */
export function run(command, args, { owner, cwd, env, okCodes = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: SBIN_PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", (error) => reject(new Error(`cannot run ${command}: ${error.message}`)))
    child.on("exit", (code, signal) => {
      if (code === 0 || (code !== null && okCodes.includes(code))) return resolve(output)
      const how = signal ? `signal ${signal}` : `exit code ${code}`
      reject(new Error(`${command} ${args.join(" ")} failed (${how}):\n${output.trim()}`))
    })
  })
}

/** Whether a child process has ended. */
export const ended = (child) => child.exitCode !== null || child.signalCode !== null

/** Sends `signal` to a child and resolves once it has exited (at once if it already has). */
export function stopChild(child, signal) {
  if (!child || ended(child)) return Promise.resolve()
  return new Promise((resolve) => {
    child.once("exit", () => resolve())
    child.kill(signal)
  })
}

/**
 * Runs `stop` (synchronous: the event loop is gone by then) and removes `dir` should the process
 * end before the server is destroyed — a failed test run, a benchmark stopped with Ctrl-C — so
 * that no server outlives it: children are not killed with their parent. Signals are handled
 * only with `signals: true` (a script; a test runner handles its own), then raised again.
 * Returns `forget()`, for `destroy()`.
 */
export function cleanUpAtExit(stop, dir, { signals = false } = {}) {
  let done = false
  const now = () => {
    if (done) return
    done = true
    try {
      stop()
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true })
    }
  }
  const onSignal = (signal) => {
    now()
    process.kill(process.pid, signal) // the listener is gone (`once`): the default action
  }
  process.once("exit", now)
  if (signals) {
    process.once("SIGINT", onSignal)
    process.once("SIGTERM", onSignal)
  }
  return () => {
    done = true
    process.off("exit", now)
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }
}
