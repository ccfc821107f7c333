// How each runtime runs the bundled program: a child process for Node.js, Bun and Deno (with the
// permissions under test), workerd through miniflare's Node.js API. Each resolves with the
// program's results, or rejects with why the program did not run to its end.
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname } from "node:path"

const require = createRequire(import.meta.url)
const TIMEOUT = 120_000

/** The newest compatibility date the installed workerd knows (its version is 1.YYYYMMDD.n). */
export function currentCompatibilityDate() {
  const miniflare = require.resolve("miniflare")
  const { version } = createRequire(miniflare)("workerd/package.json")
  const day = version.split(".")[1]
  return `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`
}

/** Runs `command` and reads the program's results line from its output. */
export function runProcess(command, args, { env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      // Outside the workspace: Deno would otherwise read its package.json and node_modules.
      cwd: tmpdir(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT)
    child.once("error", reject)
    child.once("close", (code, signal) => {
      clearTimeout(timer)
      const line = output.split("\n").find((l) => l.startsWith("LATCH-RESULTS "))
      if (line) return resolve(JSON.parse(line.slice("LATCH-RESULTS ".length)))
      const tail = output.trim().split("\n").slice(-6).join("\n")
      reject(new Error(`exited ${code ?? signal} without results:\n${tail}`))
    })
  })
}

/** A Worker bundle in workerd (miniflare's own child process), ready for `dispatchFetch`. */
export async function startWorker(file, { compatibilityDate, compatibilityFlags, bindings = {} }) {
  const { Miniflare } = await import("miniflare")
  const mf = new Miniflare({
    modules: true,
    scriptPath: file,
    // Module names are paths below this (not the working directory, which may be elsewhere).
    modulesRoot: dirname(file),
    compatibilityDate,
    compatibilityFlags,
    bindings,
  })
  await mf.ready
  return mf
}

/** Runs the Worker bundle in workerd and asks it for its results. */
export async function runWorker(file, options) {
  const mf = await startWorker(file, options)
  try {
    const response = await mf.dispatchFetch("http://localhost/")
    const text = await response.text()
    if (!response.ok)
      throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 400)}`)
    return JSON.parse(text)
  } finally {
    await mf.dispose()
  }
}
