// End-to-end tests of the demo app (apps/demo), in Debian's Chromium: Playwright's own browser
// builds cannot be downloaded here, so `playwright install` is never needed.
import { mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test"

/** Nine ports from E2E_PORT_BASE (default 4173): the demo, its OpenID Provider, the JWT demo,
 * the SMTP sink and its Resend-speaking API, two more demo instances and their PostgreSQL, then
 * the demo on SQLite. `npm test` runs the suite through run.mjs, which checks that the nine are free (or finds a free
 * block) and sets E2E_PORT_BASE. Every server below is started by the suite: none reuses one
 * already listening (`reuseExistingServer: false`), so a foreign server on a port makes the run
 * stop rather than test someone else's app. */
const BASE = Number(process.env.E2E_PORT_BASE ?? 4173)
const PORT = BASE
// The demo is opened at `localhost` (bound to 127.0.0.1): browsers refuse passkeys on an IP
// address, since a WebAuthn relying party is named by a domain.
const ORIGIN = `http://localhost:${PORT}`
/** A second demo server with JWT sessions (the first keeps sessions in its database). */
const JWT_PORT = BASE + 2
const JWT_ORIGIN = `http://localhost:${JWT_PORT}`
const SECRET = "latch-e2e-test-secret-not-for-production-0123456789abcdef"
const OP_PORT = BASE + 1
/** Two demo instances sharing one PostgreSQL server, with their session caches on (the same
 * ports as TWO_INSTANCES in tests/support.ts): two-instances.spec.ts. */
const TWO_PORT_A = BASE + 5
const TWO_PORT_B = BASE + 6
const TWO_PG_PORT = BASE + 7
/** The demo on Drizzle + SQLite (database sessions, cached), in a file made anew on every run. */
const SQLITE_PORT = BASE + 8
const SQLITE_ORIGIN = `http://localhost:${SQLITE_PORT}`
const SQLITE_DIR = join(tmpdir(), `latch-e2e-sqlite-${BASE}`)
/** The local SMTP sink of email sign-in, and where it keeps mails for /dev/mailbox. */
const MAIL_PORT = BASE + 3
/** The mailbox's Resend-speaking API, for the demo's Resend provider. */
const MAIL_API_PORT = BASE + 4
const MAIL_API_KEY = "re_latch_e2e_key"
const EMAIL = {
  AUTH_EMAIL_SERVER: `smtp://127.0.0.1:${MAIL_PORT}`,
  LATCH_DEMO_MAILBOX_DIR: join(tmpdir(), `latch-e2e-mailbox-${BASE}`),
  AUTH_RESEND_KEY: MAIL_API_KEY,
  LATCH_DEMO_RESEND_API: `http://127.0.0.1:${MAIL_API_PORT}`,
}
/** The demo's local OpenID Provider, and the demo's client at it. */
const LOCAL_OP = {
  AUTH_LOCAL_OP_ISSUER: `http://127.0.0.1:${OP_PORT}`,
  AUTH_LOCAL_OP_ID: "latch-e2e",
  AUTH_LOCAL_OP_SECRET: "latch-e2e-local-op-secret",
  // The built-in Cognito provider, pointed at the same local provider as a user pool.
  AUTH_COGNITO_ISSUER: `http://127.0.0.1:${OP_PORT}`,
  AUTH_COGNITO_ID: "latch-e2e-cognito",
  AUTH_COGNITO_SECRET: "latch-e2e-cognito-secret",
}

/**
 * Where each server's log goes (git-ignored; emptied by run.mjs at the start of a run, and its
 * last lines printed when a run fails). The servers log what a real deployment logs — the
 * refused links and forged requests the tests send, the provider's development notices — which
 * would bury the tests' own report.
 */
/**
 * Which servers this run starts: all of them, or those of one group (E2E_GROUP), when run.mjs
 * runs the suite as two Playwright processes side by side — "database" (the database demo) or
 * "jwt" (the JWT demo, the two instances and the demo on SQLite), each group with the provider
 * and mail sink of its own, on its own ports — or runs projects of one group alone ("sqlite":
 * the demo on SQLite only, for `run.mjs --project=sqlite`).
 */
const GROUP = process.env.E2E_GROUP as "database" | "jwt" | "sqlite" | undefined
const LOGS = fileURLToPath(new URL("./server-logs/", import.meta.url))
mkdirSync(LOGS, { recursive: true })
/**
 * A server's command, its standard error appended to server-logs/`name`.log; `before` runs first
 * (a build). The server replaces the shell (`exec`): Playwright's signals reach it.
 */
const logged = (name: string, command: string, before?: string) =>
  `exec 2>> "${LOGS}${name}${GROUP ? `-${GROUP}` : ""}.log"; ${before ? `${before} && ` : ""}exec ${command}`

/** The tests of two instances, which run once, against them alone. */
const TWO_INSTANCE_TESTS = /two-instances\.spec\.ts$/
/**
 * Specs whose pages do not depend on how sessions are kept: run once, against the demo with
 * JWT sessions (the lighter of the two groups run.mjs runs side by side); passkey-attestation
 * starts sites of its own, with the policies it tests. (Both strategies' reading, writing and ending of sessions are the other
 * specs' subject, and core's and the SvelteKit package's unit tests run in both.)
 */
const ANY_STRATEGY_TESTS =
  /(screenshots|builtin-pages|prerender|protection|look|passkey-attestation)\.spec\.ts$/
/**
 * The specs the test command also runs against the demo with JWT sessions: each way of signing
 * in (a passkey-first account and a security key as the second factor among them), and what a
 * session does once made (the live session, updates, the sessions of a profile), without
 * JavaScript too. The others (password accounts, two-factor, re-authentication, the
 * sign-in page's journey) make and read sessions through the same code, which core's and the
 * SvelteKit package's unit tests run in both strategies: E2E_FULL=1 (`test:full`) runs them
 * against the JWT demo as well.
 */
const JWT_SMOKE_TESTS =
  /(credentials|email|oidc|passkey|passkey-signup|security-key-2fa|live-session|session-update|profile-sessions|no-javascript)\.spec\.ts$/
const FULL = process.env.E2E_FULL === "1"

/**
 * The specs run once more against the demo on Drizzle + SQLite (`LATCH_DEMO_DATABASE=sqlite`):
 * each of Latch's own tables in use — a username and password, a password account with its
 * mailed links, an email link, a passkey with its details, two-factor with recovery codes or a
 * security key, a passkey-first account — through the real flows, with database sessions in
 * the in-process session cache. The others read and write the
 * same adapter methods, which `@latch/adapter-test` runs on SQLite in the adapter's own tests.
 */
const SQLITE_TESTS =
  /(credentials|password|email|passkey|passkey-signup|passkey-management|two-factor|security-key-2fa)\.spec\.ts$/
/** Of those specs, one test of each (more with E2E_FULL=1): the test command's time is short. */
const SQLITE_TITLES = new RegExp(
  [
    // credentials: a demo user seeded at start-up signs in.
    "signing in with the username and password form \\(the browser helper\\) returns to",
    // password: an account, its password hash, the mailed link's token; the other device's
    // session ended through the in-process cache when the password changes.
    "changes the password: the current one again",
    // email: a verification token, used once.
    "signs in with a link sent by email, which works once",
    // passkey: an authenticator row, and its counter.
    "adds a passkey on the profile, then signs in with the passkey alone",
    // two-factor: the sealed secret, a recovery code spent once.
    "a recovery code signs in once",
    // the passkey fields: a name, its dates and the browser that made it, renamed and removed.
    "lists, renames and removes passkeys, and tells the browser",
    // a security key kept for the second factor (secondFactor), asked at sign-in.
    "a security key without a PIN: added on the profile, asked at sign-in, removed",
    // a passkey-first account, its sealed sign-up cookie and mailed code.
    "creates an account with only a passkey, then signs in with it",
  ].join("|"),
)

/** The servers, by name (see GROUP). */
const SERVERS = {
  mail: {
    command: logged("mail", "node ../apps/demo/mail/server.mjs"),
    port: MAIL_PORT,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      MAIL_HOST: "127.0.0.1",
      MAIL_PORT: String(MAIL_PORT),
      MAILBOX_DIR: EMAIL.LATCH_DEMO_MAILBOX_DIR,
      MAILBOX_RESET: "1",
      MAIL_API_PORT: String(MAIL_API_PORT),
      MAIL_API_KEY,
    },
  },
  op: {
    command: logged("openid-provider", "node ../apps/demo/op/server.mjs"),
    url: `${LOCAL_OP.AUTH_LOCAL_OP_ISSUER}/.well-known/openid-configuration`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      ...LOCAL_OP,
      OP_HOST: "127.0.0.1",
      OP_PORT: String(OP_PORT),
      DEMO_ORIGIN: `${ORIGIN},${JWT_ORIGIN},${SQLITE_ORIGIN}`,
    },
  },
  database: {
    // Built here, unless `npm test` built it already (LATCH_DEMO_BUILT=1).
    command: logged(
      "demo-database-sessions",
      "node ../apps/demo/build/index.js",
      process.env.LATCH_DEMO_BUILT === "1" ? undefined : "pnpm --filter latch-demo build",
    ),
    url: `${ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(PORT),
      // adapter-node builds URLs from ORIGIN; without it, it would assume https.
      ORIGIN,
      // A fixed secret for tests only: sessions are throwaway.
      AUTH_SECRET: SECRET,
      // Database sessions on an embedded PGlite that starts empty on every run.
      PGLITE_DATA_DIR: "memory://",
      ...LOCAL_OP,
      ...EMAIL,
    },
  },
  jwt: {
    // The same build, with JWT sessions; started once the build above is done.
    command: logged("demo-jwt-sessions", "node ../apps/demo/build/index.js"),
    url: `${JWT_ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(JWT_PORT),
      ORIGIN: JWT_ORIGIN,
      AUTH_SECRET: SECRET,
      LATCH_DEMO_SESSION: "jwt",
      PGLITE_DATA_DIR: "memory://",
      ...LOCAL_OP,
      ...EMAIL,
    },
  },
  sqlite: {
    // The same build on Drizzle + SQLite (libsql, a local file): the folder is removed first,
    // so that every run starts from an empty database, as PGlite's "memory://" does.
    command: logged("demo-sqlite", "node ../apps/demo/build/index.js", `rm -rf "${SQLITE_DIR}"`),
    url: `${SQLITE_ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(SQLITE_PORT),
      ORIGIN: SQLITE_ORIGIN,
      AUTH_SECRET: SECRET,
      LATCH_DEMO_DATABASE: "sqlite",
      LATCH_DEMO_SQLITE_FILE: join(SQLITE_DIR, "demo.db"),
      ...LOCAL_OP,
      ...EMAIL,
    },
  },
  two: {
    // The same build again, as two instances on one throwaway PostgreSQL server, each at its
    // own origin. The script makes the cluster (installing Debian's postgresql package when it
    // is missing), and on SIGTERM stops the instances and the server and removes the cluster.
    command: logged("two-instances", "node ../scripts/demo-two.mjs --instances-only"),
    url: `http://localhost:${TWO_PORT_B}/`,
    reuseExistingServer: false,
    timeout: 300_000,
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT_A: String(TWO_PORT_A),
      PORT_B: String(TWO_PORT_B),
      PG_PORT: String(TWO_PG_PORT),
      AUTH_SECRET: SECRET,
    },
  },
} satisfies Record<string, NonNullable<PlaywrightTestConfig["webServer"]>>

export default defineConfig({
  testDir: "./tests",
  outputDir: GROUP ? `test-results/${GROUP}` : "test-results",
  fullyParallel: false,
  // Two cores: the server and one browser share them.
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  // Hang bounds, not speed checks (timings are bench/'s): wide enough for a machine busy with
  // other work, where a page that takes 2 s when idle can take 10. A passing test never waits
  // for them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    ...devices["Desktop Chrome"],
    baseURL: ORIGIN,
    headless: true,
    colorScheme: "light",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    SERVERS.mail,
    SERVERS.op,
    ...(GROUP === undefined || GROUP === "database" ? [SERVERS.database] : []),
    ...(GROUP === undefined || GROUP === "jwt" ? [SERVERS.jwt, SERVERS.two] : []),
    ...(GROUP === "database" ? [] : [SERVERS.sqlite]),
  ],
  projects: [
    // The database demo runs every spec but ANY_STRATEGY_TESTS, which run against the JWT demo
    // with JWT_SMOKE_TESTS (with E2E_FULL=1, every spec).
    {
      name: "database-sessions",
      use: { baseURL: ORIGIN },
      testIgnore: [TWO_INSTANCE_TESTS, ANY_STRATEGY_TESTS],
    },
    {
      name: "jwt-sessions",
      use: { baseURL: JWT_ORIGIN },
      testIgnore: TWO_INSTANCE_TESTS,
      ...(FULL ? {} : { testMatch: [JWT_SMOKE_TESTS, ANY_STRATEGY_TESTS] }),
    },
    {
      name: "sqlite",
      use: { baseURL: SQLITE_ORIGIN },
      testMatch: SQLITE_TESTS,
      ...(FULL ? {} : { grep: SQLITE_TITLES }),
    },
    {
      name: "two-instances",
      use: { baseURL: `http://localhost:${TWO_PORT_A}` },
      testMatch: TWO_INSTANCE_TESTS,
    },
  ],
})
