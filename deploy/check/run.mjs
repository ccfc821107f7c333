// Child processes for the check: a command whose output is kept (the last lines are shown when
// it fails), run without network where the machine allows it.
import { spawn, spawnSync } from "node:child_process"

/** Whether `unshare -n` can run a command in a namespace without network (Linux, as root). */
export const offline = (() => {
  if (process.platform !== "linux") return false
  return spawnSync("unshare", ["-n", "true"], { stdio: "ignore" }).status === 0
})()

/** The last `count` lines of a log. */
export function tail(log, count = 20) {
  return log.trimEnd().split("\n").slice(-count).join("\n")
}

/**
 * Runs a command to its end; resolves with its output, rejects with the output's tail (and
 * `signal`, when a signal ended it). With
 * `noNetwork` (and `unshare` available) it runs with no network at all: a build step that tries
 * to download something fails.
 */
export function run(command, args, { cwd, env, noNetwork = false } = {}) {
  const [file, argv] =
    noNetwork && offline ? ["unshare", ["-n", command, ...args]] : [command, args]
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd, env: { ...process.env, ...env } })
    let log = ""
    child.stdout.on("data", (chunk) => (log += chunk))
    child.stderr.on("data", (chunk) => (log += chunk))
    child.on("error", reject)
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(log)
      const how = signal ? `was ended by ${signal}` : `exited ${code}`
      reject(
        Object.assign(new Error(`${command} ${args.join(" ")} ${how}\n${tail(log)}`), { signal }),
      )
    })
  })
}

/** Runs async jobs, at most `limit` at once; resolves with their results in order. */
export async function inParallel(jobs, limit) {
  const results = new Array(jobs.length)
  let next = 0
  async function worker() {
    while (next < jobs.length) {
      const index = next++
      results[index] = await jobs[index]().then(
        (value) => ({ ok: true, value }),
        (error) => ({ ok: false, error }),
      )
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker))
  return results
}
