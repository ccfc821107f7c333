// The servers of bench/http.mjs and the load they are given: the SvelteKit app of bench/app built
// once and started once per mode, pinned to one CPU; a forked load generator pinned to another;
// CPU time and resident memory read from /proc; signing in over HTTP as a browser would.
import { fork, spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import os from "node:os"
import { fileURLToPath } from "node:url"
import { BenchError, benchDir, freePort } from "./common.mjs"

const APP_DIR = fileURLToPath(new URL("app/", benchDir))
const SERVER = fileURLToPath(new URL("app/build/index.js", benchDir))
const WORKER = fileURLToPath(new URL("lib/load-worker.mjs", benchDir))

export const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
/** The user every server's credentials provider signs in (`username=alice`), by name. */
export const USER = "Alice"

function fail(message) {
  throw new BenchError(message)
}

/** `vite build` in bench/app, once for every mode; returns the seconds it took. */
export function buildApp() {
  const started = performance.now()
  const vite = fileURLToPath(new URL("node_modules/vite/bin/vite.js", benchDir))
  const result = spawnSync(process.execPath, [vite, "build"], { cwd: APP_DIR, encoding: "utf8" })
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr)
    fail(`vite build of bench/app failed (exit ${result.status ?? result.signal})`)
  }
  return (performance.now() - started) / 1000
}

/**
 * Two CPUs of this process's affinity list, when `taskset` can pin to them (Linux): the servers
 * run on the first, the load generator on the second, so that they never share a core (left to
 * the scheduler, they could, and req/s then spread wider). Elsewhere, or with one CPU,
 * `undefined`: no pinning.
 */
function pinnableCpus() {
  if (os.platform() !== "linux") return undefined
  const result = spawnSync("taskset", ["-pc", String(process.pid)], { encoding: "utf8" })
  if (result.status !== 0) return undefined
  const list = result.stdout.split(":").pop().trim()
  const cpus = list.split(",").flatMap((part) => {
    const [from, to = from] = part.split("-").map(Number)
    return Array.from({ length: to - from + 1 }, (_, i) => from + i)
  })
  return cpus.length >= 2 && cpus.every(Number.isInteger) ? cpus.slice(0, 2) : undefined
}

export const PINNED = pinnableCpus()

/** `[command, args]` running `node …args`, pinned to `cpu` when pinning is possible. */
const node = (cpu, args) =>
  PINNED ? ["taskset", ["-c", String(cpu), process.execPath, ...args]] : [process.execPath, args]

const children = new Set()
// Whatever happens to the runner, its servers and worker do not outlive it.
process.on("exit", () => {
  for (const child of children) child.kill()
})

function track(child) {
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

/** A line of `--trace-gc`: `[pid:0x…]  1234 ms: Mark-Compact 73.1 (96.9) -> 15.4 (96.9) MB, …`. */
const GC_LINE = /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: /
const FULL_GC = /ms: (Mark-Compact|Mark-sweep)\b[^\d]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(/

/**
 * Starts `node --trace-gc bench/app/build/index.js` in `mode`; resolves once it answers `/`, with
 * the server's `origin`, its process, the last 4,000 characters it printed other than garbage
 * collections (`output()`), and `fullGcs`: the time and the heap left (bytes) after each full
 * garbage collection (mark-compact), which only live objects survive.
 */
export async function startServer(mode, extraEnv = {}) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const env = { ...process.env }
  // The servers run as deployed: no inherited Node options or caches of the runner's shell.
  delete env.NODE_OPTIONS
  delete env.NODE_COMPILE_CACHE
  const child = track(
    spawn(...node(PINNED?.[0], ["--trace-gc", SERVER]), {
      env: {
        ...env,
        NODE_ENV: "production",
        BENCH_MODE: mode,
        HOST: "127.0.0.1",
        PORT: String(port),
        ORIGIN: origin,
        AUTH_SECRET: SECRET,
        ...extraEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  )
  let output = ""
  const fullGcs = []
  const keep = (text) => (output = (output + text).slice(-4000))
  let partial = ""
  child.stdout.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n")
    partial = lines.pop()
    for (const line of lines) {
      if (!GC_LINE.test(line)) keep(`${line}\n`)
      const full = FULL_GC.exec(line)
      if (full) fullGcs.push({ at: performance.now(), heap: Number(full[2]) * 2 ** 20 })
    }
  })
  child.stderr.on("data", keep)

  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      fail(`the ${mode} server exited (${child.exitCode ?? child.signalCode}):\n${output}`)
    try {
      const response = await fetch(`${origin}/`)
      await response.arrayBuffer()
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) fail(`the ${mode} server did not answer within 20 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { mode, origin, child, fullGcs, output: () => output }
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill()
  // A server still closing after 5 s (idle database connections, say) is killed.
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
  await exited
  clearTimeout(timer)
}

// --- Signing in ----------------------------------------------------------------------------------

/** The `name=value` pairs of a response's Set-Cookie headers. */
export const setCookies = (response) =>
  response.headers.getSetCookie().map((header) => header.split(";", 1)[0].trim())

/**
 * Signs in as a browser would through the library a server runs: a form-encoded `POST
 * /auth/callback/credentials` with an `Origin` header, after a `GET /auth/csrf` when `csrf`
 * (its token in the body and its cookies carried over). Returns the `Cookie` header the browser
 * then sends: every cookie the two answers left set, the session cookie `cookieName` among them.
 */
export async function signIn(origin, cookieName, { csrf }) {
  const fields = { username: "alice", password: "x" }
  const jar = new Map()
  const keep = (response) => {
    for (const pair of setCookies(response)) {
      const at = pair.indexOf("=")
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
      if (value) jar.set(name, value)
      else jar.delete(name)
    }
  }
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  if (csrf) {
    const answer = await fetch(`${origin}/auth/csrf`)
    if (!answer.ok) fail(`GET ${origin}/auth/csrf answered ${answer.status}`)
    fields.csrfToken = (await answer.json()).csrfToken
    keep(answer)
  }
  const response = await fetch(`${origin}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin,
      ...(jar.size ? { cookie: cookie() } : {}),
    },
    body: new URLSearchParams(fields),
  })
  await response.arrayBuffer()
  keep(response)
  if (!jar.get(cookieName))
    fail(`sign-in at ${origin} (status ${response.status}) set no ${cookieName} cookie`)
  const location = response.headers.get("location") ?? ""
  if (response.status !== 302 || /error/i.test(location))
    fail(`sign-in at ${origin} answered ${response.status} to ${location}`)
  return cookie()
}

// --- Load ----------------------------------------------------------------------------------------

/**
 * The forked load generator. `load(options)` runs one autocannon measurement in it (see
 * load-worker.mjs for the options) and resolves with its result.
 */
export function loadGenerator({ connections }) {
  // fork() runs `execPath …execArgv WORKER`: taskset execs node in place, keeping the IPC channel.
  const [execPath, execArgv] = PINNED
    ? ["taskset", ["-c", String(PINNED[1]), process.execPath]]
    : [process.execPath, []]
  const worker = track(
    fork(WORKER, [], { execPath, execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  )
  const pending = new Map()
  let next = 0
  worker.on("message", ({ id, result, error }) => {
    const { resolve, reject } = pending.get(id)
    pending.delete(id)
    if (error) reject(new Error(`autocannon failed: ${error}`))
    else resolve(result)
  })
  worker.once("exit", (code) => {
    for (const { reject } of pending.values())
      reject(new Error(`the load generator exited (${code})`))
  })
  const load = (options) =>
    new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve, reject })
      worker.send({ id, connections, ...options })
    })
  return { worker, load }
}

// --- What a server uses --------------------------------------------------------------------------

/**
 * The CPU time a process has used so far, in seconds, summed over its threads (Linux:
 * `/proc/<pid>/task/<tid>/schedstat`, nanoseconds); `undefined` where that is not available.
 */
export function cpuSeconds(pid) {
  let tasks
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  let nanoseconds = 0
  for (const task of tasks) {
    try {
      nanoseconds += Number(
        readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0],
      )
    } catch {
      // A thread that just ended.
    }
  }
  return nanoseconds / 1e9
}

/** A process's resident set size in bytes (Linux: `VmRSS` of `/proc/<pid>/status`), or NaN. */
export function rssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
    return kib ? Number(kib) * 1024 : NaN
  } catch {
    return NaN
  }
}
