// `npm run demo`: installs what is missing, builds the packages and the demo (apps/demo), makes
// a development AUTH_SECRET on first run, and starts the demo, its local OpenID Provider and a
// local SMTP sink (for email sign-in; its mails are at /dev/mailbox) on 127.0.0.1. The demo is
// opened at http://localhost:3000, not at the IP address: browsers refuse passkeys (WebAuthn) on
// an IP address, since a relying party is named by a domain.
import { spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync, writeFileSync, appendFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { install, root, run } from "./lib.mjs"

/**
 * Runs a build with its output held back, shown only if it fails: what the build tools print on
 * success is about building (Vite's chunk table, SvelteKit's "Run npm run preview…", which this
 * script does for you, Rollup's "Generated an empty chunk" from adapter-node), not about the demo.
 */
function build(what, args) {
  console.log(`• ${what}`)
  const result = spawnSync("pnpm", args, {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  })
  if (result.status === 0) return
  process.stdout.write(result.stdout ?? "")
  process.stderr.write(result.stderr ?? "")
  console.error(`\n✗ pnpm ${args.join(" ")} failed (exit ${result.status ?? result.signal})`)
  process.exit(result.status ?? 1)
}

/**
 * The demo's database, checked before anything is built: LATCH_DEMO_DATABASE is "postgres" (the
 * default: the embedded PGlite, or DATABASE_URL's server) or "sqlite" (Drizzle on a libsql file).
 */
function databaseLine() {
  const kind = process.env.LATCH_DEMO_DATABASE || "postgres"
  if (kind !== "postgres" && kind !== "sqlite") {
    console.error(
      `✗ LATCH_DEMO_DATABASE=${kind}: the demo runs on "postgres" (the default) or "sqlite"`,
    )
    process.exit(1)
  }
  if (kind === "sqlite" && process.env.DATABASE_URL) {
    console.error("✗ LATCH_DEMO_DATABASE=sqlite and DATABASE_URL are both set: choose one database")
    process.exit(1)
  }
  if (kind === "sqlite") {
    // Relative to the demo's folder, where its server runs.
    const file = resolve(
      root,
      "apps/demo",
      process.env.LATCH_DEMO_SQLITE_FILE || ".data/sqlite/demo.db",
    )
    return `SQLite through Drizzle (libsql), ${relative(root, file)}`
  }
  return process.env.DATABASE_URL ? "PostgreSQL at DATABASE_URL" : "PGlite, apps/demo/.data/pglite"
}
const database = databaseLine()

install()
build("building the packages (about a minute the first time)", ["run", "build"])
build("building the demo", ["--filter", "latch-demo", "run", "build"])

const envFile = join(root, ".env")
const env = existsSync(envFile) ? readFileSync(envFile, "utf8") : ""
if (!process.env.AUTH_SECRET && !/^AUTH_SECRET=/m.test(env)) {
  const secret = randomBytes(33).toString("base64")
  appendFileSync(envFile, `${env && !env.endsWith("\n") ? "\n" : ""}AUTH_SECRET=${secret}\n`)
  console.log(`• wrote a development AUTH_SECRET to .env (git-ignored); use your own in production`)
}
if (!existsSync(envFile)) writeFileSync(envFile, "")

const host = process.env.HOST ?? "127.0.0.1"
const port = process.env.PORT ?? "3000"
const opPort = process.env.OP_PORT ?? "3001"
const origin = process.env.ORIGIN ?? `http://${host === "127.0.0.1" ? "localhost" : host}:${port}`
const mailPort = process.env.MAIL_PORT ?? "2525"
const mailboxDir = join(root, "apps/demo/.data/mailbox")
const email = {
  AUTH_EMAIL_SERVER: `smtp://${host}:${mailPort}`,
  LATCH_DEMO_MAILBOX_DIR: mailboxDir,
}
const localOP = {
  AUTH_LOCAL_OP_ISSUER: `http://${host}:${opPort}`,
  AUTH_LOCAL_OP_ID: "latch-demo",
  AUTH_LOCAL_OP_SECRET: "latch-demo-local-op-secret",
}

// The local OpenID Provider runs beside the demo and stops with it.
const op = spawn(process.execPath, ["op/server.mjs"], {
  cwd: join(root, "apps/demo"),
  stdio: "inherit",
  env: { ...process.env, ...localOP, OP_HOST: host, OP_PORT: opPort, DEMO_ORIGIN: origin },
})
// The SMTP sink receives the demo's sign-in mails; /dev/mailbox lists them.
const mail = spawn(process.execPath, ["mail/server.mjs"], {
  cwd: join(root, "apps/demo"),
  stdio: "inherit",
  env: { ...process.env, MAIL_HOST: host, MAIL_PORT: mailPort, MAILBOX_DIR: mailboxDir },
})
const stop = () => {
  op.kill()
  mail.kill()
}
process.on("exit", stop)
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0))

console.log(`\n  Latch demo: ${origin}  (alice / wonderland, bob / canwefixit)`)
console.log(`  Sign-in mails: ${origin}/dev/mailbox`)
console.log(`  Database: ${database}`)
// Said here so that the line Latch logs on the first request is not a surprise.
console.log(
  `  Passkeys are on: Latch logs once that they are experimental ([latch][warn] experimental-webauthn).\n`,
)
run("node", [`--env-file=${envFile}`, "build/index.js"], {
  cwd: join(root, "apps/demo"),
  // adapter-node needs the public origin to build URLs (it would assume https otherwise).
  env: { HOST: host, PORT: port, ORIGIN: origin, ...localOP, ...email },
})
