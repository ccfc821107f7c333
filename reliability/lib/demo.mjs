// The built demo (apps/demo/build), started as a child process on 127.0.0.1 for the harness:
// database or JWT sessions, on PGlite in memory or on a PostgreSQL server, with email sign-in
// pointed at an SMTP server of the caller's choosing. `buildDemo()` builds it first.
import { spawn, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { freePort } from "../../scripts/install-lib.mjs"

export const root = fileURLToPath(new URL("../../", import.meta.url))
const SERVER = fileURLToPath(new URL("../../apps/demo/build/index.js", import.meta.url))

/** The secret every demo of the harness runs with; the invariants look for it in answers. */
export const SECRET = "latch-reliability-secret-not-for-production-0123456789abcdef"

/** The demo's users (apps/demo/src/lib/users.ts). */
export const ALICE = { username: "alice", password: "wonderland", name: "Alice Liddell" }
export const BOB = { username: "bob", password: "canwefixit", name: "Bob Builder" }

/**
 * Builds the packages and the demo (a few seconds when nothing changed). Not when
 * LATCH_DEMO_BUILT=1: `npm test` builds them once, before every suite that runs the demo.
 */
export function buildDemo() {
  if (process.env.LATCH_DEMO_BUILT === "1") return
  for (const args of [
    ["run", "build"],
    ["--filter", "latch-demo", "run", "build"],
  ]) {
    const result = spawnSync("pnpm", args, { cwd: root, stdio: ["ignore", "ignore", "inherit"] })
    if (result.status !== 0) throw new Error(`pnpm ${args.join(" ")} failed`)
  }
}

export { freePort }

/**
 * Starts the demo. `options.strategy`: "database" (default) or "jwt"; `options.databaseUrl`: a
 * PostgreSQL server (default: PGlite in memory); `options.smtp`: `smtp://127.0.0.1:PORT` for
 * email sign-in (default: none); `options.env`: more variables. Resolves once `/` answers, to
 * `{ origin, child, pid, output(), stop() }`.
 */
export async function startDemo(options = {}) {
  const port = options.port ?? (await freePort())
  const origin = `http://localhost:${port}`
  const env = { ...process.env }
  delete env.NODE_OPTIONS
  delete env.DATABASE_URL
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      ORIGIN: origin,
      AUTH_SECRET: SECRET,
      ...(options.strategy === "jwt" && { LATCH_DEMO_SESSION: "jwt" }),
      ...(options.databaseUrl
        ? { DATABASE_URL: options.databaseUrl }
        : { PGLITE_DATA_DIR: "memory://" }),
      ...(options.smtp && { AUTH_EMAIL_SERVER: options.smtp }),
      ...(options.mailboxDir && { LATCH_DEMO_MAILBOX_DIR: options.mailboxDir }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const keep = (chunk) => (output = (output + chunk).slice(-20_000))
  child.stdout.on("data", keep)
  child.stderr.on("data", keep)
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the demo exited (${child.exitCode ?? child.signalCode}):\n${output}`)
    try {
      const response = await fetch(`${origin}/`)
      await response.arrayBuffer()
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the demo did not answer within 30 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  async function stop() {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
    await exited
    clearTimeout(timer)
  }
  return { origin, port, child, pid: child.pid, output: () => output, stop }
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
export const setCookies = (response) =>
  response.headers.getSetCookie().map((header) => header.split(";", 1)[0].trim())

/** Signs in with the credentials callback as a browser would; resolves to the Cookie header. */
export async function signIn(origin, user = ALICE) {
  const response = await fetch(`${origin}/auth/callback/credentials`, {
    method: "POST",
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: user.username, password: user.password }),
    redirect: "manual",
  })
  await response.arrayBuffer()
  const cookies = setCookies(response).filter((pair) => !pair.endsWith("="))
  if (!cookies.some((pair) => pair.startsWith("authjs.session-token")))
    throw new Error(`signing in as ${user.username} set no session cookie (${response.status})`)
  return cookies.join("; ")
}
