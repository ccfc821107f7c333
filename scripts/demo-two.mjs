// `pnpm demo:two`: the demo as two instances behind one origin, as a site with more than one
// server runs it — on a real PostgreSQL, with each instance's session cache on. It builds what
// `pnpm demo` builds, starts a throwaway PostgreSQL cluster (Debian's package, installed when
// missing), the demo's local OpenID Provider and SMTP sink, instances "a" and "b" of the demo, and
// on the public port a small reverse proxy that hands requests to them in turn and says which one
// answered (`x-latch-demo-instance: a` or `b`). Everything listens on 127.0.0.1; Ctrl-C stops it
// all and removes the cluster.
//
// With --instances-only (the e2e tests, which start their own provider and mail sink, and build
// the demo first), it starts only the database and the two instances, each at its own origin
// (http://localhost:PORT_A and http://localhost:PORT_B), without building.
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { appendFileSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { install, root, run } from "./lib.mjs"
import { startPostgres } from "./postgres.mjs"
import { startRoundRobinProxy } from "./round-robin-proxy.mjs"

const { values: flags } = parseArgs({ options: { "instances-only": { type: "boolean" } } })
const full = !flags["instances-only"]
const env = process.env
const host = "127.0.0.1"
const port = Number(env.PORT ?? 3000)
const publicOrigin = `http://localhost:${port}`
const opPort = env.OP_PORT ?? "3001"
const mailPort = env.MAIL_PORT ?? "2525"
const demoDir = join(root, "apps/demo")
const instances = [
  { name: "a", port: Number(env.PORT_A ?? port + 10) },
  { name: "b", port: Number(env.PORT_B ?? port + 11) },
]

/** The development AUTH_SECRET in .env, written on first run as `pnpm demo` does (same file). */
function developmentSecret() {
  const envFile = join(root, ".env")
  const text = existsSync(envFile) ? readFileSync(envFile, "utf8") : ""
  const found = /^AUTH_SECRET=(.*)$/m.exec(text)?.[1]
  if (found) return found
  const secret = randomBytes(33).toString("base64")
  appendFileSync(envFile, `${text && !text.endsWith("\n") ? "\n" : ""}AUTH_SECRET=${secret}\n`)
  console.log(`• wrote a development AUTH_SECRET to .env (git-ignored); use your own in production`)
  return secret
}

/** Everything started, newest first: stopped in that order. */
const children = []
let stopping

/** Stops the proxy, the instances, the provider and mail sink, then PostgreSQL; once. */
function stopAll(code) {
  stopping ??= (async () => {
    for (const stop of children) await stop().catch((error) => console.error(error))
    process.exit(code)
  })()
  return stopping
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0))

/**
 * Starts a Node.js program; its `stop()` sends SIGTERM and waits (SIGKILL after 10 s). When it
 * exits on its own, everything is stopped: the demo is not whole without it.
 */
function startProgram(name, args, options) {
  const child = spawn(process.execPath, args, { stdio: "inherit", ...options })
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.once("exit", (code, signal) => {
    if (stopping) return
    console.error(`✗ ${name} exited (${signal ?? `code ${code}`}); stopping the demo`)
    stopAll(1)
  })
  // Should this script die without stopping it (an error of its own), it goes too.
  process.once("exit", () => child.kill("SIGTERM"))
  children.unshift(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
    await exited
    clearTimeout(timer)
  })
  return child
}

/** Resolves once `url` answers (any HTTP status), or stops everything after 60 s. */
async function answering(name, url) {
  for (let waited = 0; waited < 60_000; waited += 200) {
    if (stopping) return
    const answered = await fetch(url, { redirect: "manual" }).then(
      () => true,
      () => false,
    )
    if (answered) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  console.error(`✗ ${name} did not answer at ${url} within 60 s`)
  await stopAll(1)
}

if (full) {
  install()
  run("pnpm", ["run", "build"])
  run("pnpm", ["--filter", "latch-demo", "run", "build"])
}
const secret = full ? developmentSecret() : env.AUTH_SECRET
if (!secret) {
  console.error("✗ AUTH_SECRET is not set")
  process.exit(1)
}

const postgres = await startPostgres(env.PG_PORT ? { port: Number(env.PG_PORT) } : {})
children.unshift(() => postgres.stop())

/** What `pnpm demo` gives the demo: its OpenID Provider and its SMTP sink. */
let services = {}
if (full) {
  const localOP = {
    AUTH_LOCAL_OP_ISSUER: `http://${host}:${opPort}`,
    AUTH_LOCAL_OP_ID: "latch-demo",
    AUTH_LOCAL_OP_SECRET: "latch-demo-local-op-secret",
  }
  const mailboxDir = join(demoDir, ".data/mailbox")
  startProgram("the OpenID Provider", ["op/server.mjs"], {
    cwd: demoDir,
    env: { ...env, ...localOP, OP_HOST: host, OP_PORT: opPort, DEMO_ORIGIN: publicOrigin },
  })
  startProgram("the SMTP sink", ["mail/server.mjs"], {
    cwd: demoDir,
    env: { ...env, MAIL_HOST: host, MAIL_PORT: mailPort, MAILBOX_DIR: mailboxDir },
  })
  await answering(
    "the OpenID Provider",
    `${localOP.AUTH_LOCAL_OP_ISSUER}/.well-known/openid-configuration`,
  )
  services = {
    ...localOP,
    AUTH_EMAIL_SERVER: `smtp://${host}:${mailPort}`,
    LATCH_DEMO_MAILBOX_DIR: mailboxDir,
  }
}

// One after the other: the first one's first request migrates the database and adds the demo
// users, which the second then finds.
for (const instance of instances) {
  const origin = full ? publicOrigin : `http://localhost:${instance.port}`
  startProgram(`instance ${instance.name}`, ["build/index.js"], {
    cwd: demoDir,
    env: {
      ...env,
      ...services,
      HOST: host,
      PORT: String(instance.port),
      // adapter-node builds URLs from ORIGIN (the proxy's, which every page is loaded from).
      ORIGIN: origin,
      AUTH_SECRET: secret,
      DATABASE_URL: postgres.url,
      // Behind the proxy, the client's address is the one it forwards (it sets the header
      // itself, so a client cannot choose it).
      ...(full && { ADDRESS_HEADER: "x-forwarded-for", XFF_DEPTH: "1" }),
    },
  })
  await answering(`instance ${instance.name}`, `http://${host}:${instance.port}/`)
}

if (full) {
  const proxy = await startRoundRobinProxy({
    host,
    port,
    targets: instances.map(({ name, port }) => ({ name, url: `http://${host}:${port}` })),
  }).catch(async (error) => {
    console.error(`✗ the proxy cannot listen on ${host}:${port}: ${error.message}`)
    return stopAll(1)
  })
  children.unshift(() => proxy.close())
  console.log(`
  Latch demo, two instances: ${publicOrigin}  (alice / wonderland, bob / canwefixit)
  Requests alternate between instances a and b; each response says which one answered:
    curl -sI ${publicOrigin}/ | grep x-latch-demo-instance
  Sessions are in PostgreSQL (${postgres.url}), and each instance caches the ones it read.
  Try: sign in as alice in two browsers (or a private window), open /profile in one and sign
  the other out. Its next page is refused by both instances, whichever serves it.
  Ctrl-C stops everything and removes the database.
`)
} else {
  console.log(
    `two demo instances ready: ${instances.map((i) => `localhost:${i.port}`).join(", ")}; ${postgres.url}`,
  )
}
