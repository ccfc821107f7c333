// The add-on as a user runs it: for each choice below, a fresh app made by `sv create` (the `sv`
// of the npm registry this package builds against, run with flags, no prompt), then
// `sv add file:<this package>=<options>`, then the app's dependencies installed with npm —
// Latch's packages as the tarballs `pnpm pack` makes, everything else from the registry — its
// `check` (svelte-check) and `build`, and the built app served by `vite preview` on 127.0.0.1,
// where a visitor of /protected is sent to the sign-in page, signs in over HTTP as a browser
// would, sees the protected page and signs out. Everything it made is removed at the end.
//
//   node test/apps.mjs                    every choice, one after the other
//   node test/apps.mjs --only drizzle     the choices whose name contains "drizzle"
//   node test/apps.mjs --keep             leave the apps' directory (to look into a failure)
//
// The workspace's packages must be built (`pnpm run build`).
import assert from "node:assert/strict"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { startMailbox } from "latch-mailbox"
import {
  browser,
  exec,
  findForm,
  formWith,
  freePort,
  packPackages,
  start,
  step,
  stop,
  tempDir,
} from "../../../scripts/install-lib.mjs"
import { startPostgres } from "../../../scripts/postgres.mjs"

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    // Two apps at a time: most of an app's time is npm and one-threaded builds, so two share the
    // machine's cores better than one (about a third less wall time on two cores).
    jobs: { type: "string", default: "2" },
  },
})

const here = fileURLToPath(new URL("..", import.meta.url))
const sv = join(here, "node_modules/.bin/sv")
const SESSION_COOKIE = "authjs.session-token"

/** The choices, each an app: what `sv add` is given, and what is checked on the running app. */
const CASES = [
  {
    name: "the demo user, no database (JWT sessions)",
    options: "providers:credentials+database:none",
    flows: [demoUserFlow],
  },
  {
    name: "password accounts on PGlite",
    options: "providers:password+database:pglite",
    mailbox: true,
    flows: [passwordFlow],
  },
  {
    name: "GitHub and the demo user on a PostgreSQL server",
    options: "providers:github,credentials+database:postgres",
    postgres: true,
    flows: [gitHubFlow, demoUserFlow],
  },
  {
    name: "the demo user on the app's Drizzle database (SQLite, libsql)",
    drizzle: "database:sqlite+client:libsql",
    options: "providers:credentials+database:drizzle",
    flows: [demoUserFlow],
  },
]

/** `KEY=value` lines of a .env file (values in double quotes unquoted). */
function readEnv(file) {
  const env = {}
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line)
    if (match) env[match[1]] = match[2].startsWith('"') ? JSON.parse(match[2]) : match[2]
  }
  return env
}

/** Where a redirect goes, as a path on the app's origin. */
function target(origin, { location }) {
  const url = new URL(location ?? "", origin)
  assert.equal(url.origin, origin, `a redirect to ${location} leaves the app`)
  return url.pathname + url.search
}

/** Signs in at /signin with a form of `provider` and `fields`; returns the response. */
async function signInWith(user, provider, fields, pagePath = "/signin?callbackUrl=%2Fprotected") {
  const page = await user.request(pagePath)
  assert.equal(page.status, 200, `GET ${pagePath}`)
  const form = findForm(
    await page.response.text(),
    pagePath,
    (_, body) => body.includes(`name="providerId" value="${provider}"`),
    `for ${provider}`,
  )
  assert.equal(form.action, "/signin", "<SignIn> posts to the sign-in page's action")
  return user.request(form.action, { method: "POST", form: { ...form.hidden, ...fields } })
}

/** Signs out with the protected page's <SignOut>; the protected page then sends to /signin. */
async function signOut(origin, user) {
  const page = await (await user.request("/protected")).response.text()
  const form = findForm(page, "/protected", (attributes) => /signout/.test(attributes), "signout")
  const result = await user.request(form.action, { method: "POST", form: form.hidden })
  assert.equal(result.status, 303, "POST /signout")
  assert.equal(target(origin, result), "/")
  assert.equal(user.jar.has(SESSION_COOKIE), false, "the session cookie is cleared")
  assert.equal((await user.request("/protected")).status, 303, "signed out")
}

async function demoUserFlow({ origin, app }) {
  const password = readEnv(join(app, ".env")).AUTH_DEMO_PASSWORD
  assert.match(password ?? "", /^[A-Za-z0-9_-]{16}$/, "AUTH_DEMO_PASSWORD in .env")
  const user = browser(origin)

  // protect("/protected") sends a visitor without a session to the app's sign-in page.
  let result = await user.request("/protected")
  assert.equal(result.status, 303, "GET /protected without a session")
  assert.equal(target(origin, result), "/signin?callbackUrl=%2Fprotected")

  result = await signInWith(user, "credentials", { username: "demo", password: "wrong" })
  assert.equal(result.status, 400, "a wrong password is refused")
  assert.match(await result.response.text(), /The sign-in was refused \(credentials\)/)
  assert.equal(user.jar.has(SESSION_COOKIE), false)

  result = await signInWith(user, "credentials", { username: "demo", password })
  assert.equal(result.status, 303, "the demo user signs in")
  assert.equal(target(origin, result), "/protected")
  assert.ok(user.jar.has(SESSION_COOKIE), "the session cookie is set")

  result = await user.request("/protected")
  assert.equal(result.status, 200, "GET /protected signed in")
  assert.match(await result.response.text(), /Signed in as Demo User/)
  const session = await (await user.request("/auth/session")).response.json()
  assert.equal(session?.user?.email, "demo@example.com", "GET /auth/session")
  await signOut(origin, user)
}

async function passwordFlow({ origin, mailbox }) {
  const account = { email: "ada@example.com", password: "analytical engine 1843", name: "Ada" }
  const user = browser(origin)

  // Sign up on the built-in page the sign-in page links to.
  let result = await user.request("/signin")
  assert.match(await result.response.text(), /href="\/auth\/signup"/, "a link to sign up")
  result = await user.request("/auth/signup")
  assert.equal(result.status, 200, "GET /auth/signup")
  const signUp = formWith(await result.response.text(), "password", "/auth/signup")
  result = await user.request(signUp.action, {
    method: "POST",
    form: { ...signUp.hidden, ...account },
  })
  assert.equal(result.status, 302, "POST the sign-up form")
  assert.match(target(origin, result), /^\/auth\/verify-request\?.*type=signup/)

  // The mailed link opens "Confirm your address"; its button creates the account, signed in.
  const mail = await mailbox.nextFor(account.email, 20_000)
  const link = /https?:\/\/[^\s"<>]*\/auth\/verify-email\/password\?token=[^\s"<>]+/.exec(
    mail.text ?? "",
  )?.[0]
  assert.ok(link, `a confirmation link in:\n${mail.text}`)
  const linkPath = target(origin, { location: link.replaceAll("&amp;", "&") })
  result = await user.request(linkPath)
  assert.equal(result.status, 200, "GET the confirmation link")
  const confirm = findForm(
    await result.response.text(),
    linkPath,
    (attributes) => /verify-email/.test(attributes),
    "confirming the address",
  )
  result = await user.request(confirm.action, { method: "POST", form: confirm.hidden })
  assert.equal(result.status, 302, "POST the confirmation")
  assert.ok(user.jar.has(SESSION_COOKIE), "confirmed and signed in")
  result = await user.request("/protected")
  assert.equal(result.status, 200)
  assert.match(await result.response.text(), /Signed in as Ada/)
  await signOut(origin, user)

  // Then the app's sign-in page, with the password.
  result = await signInWith(user, "password", { email: account.email, password: "not it" })
  assert.equal(result.status, 400, "a wrong password is refused")
  assert.match(await result.response.text(), /The sign-in was refused \(credentials\)/)
  result = await signInWith(user, "password", { email: account.email, password: account.password })
  assert.equal(result.status, 303, "the password signs in")
  assert.equal(target(origin, result), "/protected")
  result = await user.request("/protected")
  assert.match(await result.response.text(), /Signed in as Ada/)
}

async function gitHubFlow({ origin }) {
  // The sign-in page's GitHub button starts the OAuth flow: a 303 to GitHub's authorization
  // endpoint with the client id from the environment and the app's callback URL. (GitHub itself
  // is not reachable here; the callback's side is core's, tested there against a real provider.)
  const result = await signInWith(browser(origin), "github", {})
  assert.equal(result.status, 303, "POST /signin with providerId=github")
  const url = new URL(result.location)
  assert.equal(url.origin + url.pathname, "https://github.com/login/oauth/authorize")
  assert.equal(url.searchParams.get("client_id"), "test-client-id")
  assert.equal(url.searchParams.get("redirect_uri"), `${origin}/auth/callback/github`)
  assert.ok(url.searchParams.get("state"), "state")
  assert.equal(url.searchParams.get("code_challenge_method"), "S256")
}

/** What the add-on wrote, checked before anything is installed. */
function checkWrittenFiles(app, testCase) {
  const read = (file) => readFileSync(join(app, file), "utf8")
  for (const file of [
    "src/auth.ts",
    "src/hooks.server.ts",
    "src/routes/signin/+page.svelte",
    "src/routes/protected/+page.server.ts",
  ]) {
    assert.ok(existsSync(join(app, file)), `the add-on wrote ${file}`)
  }
  assert.match(read(".env"), /^AUTH_SECRET=[A-Za-z0-9_-]{44}$/m, "a fresh AUTH_SECRET in .env")
  assert.match(read(".env.example"), /^AUTH_SECRET=$/m, ".env.example names it, without a value")
  assert.match(read("src/hooks.server.ts"), /protect\(\["\/protected"\]/)
  const manifest = JSON.parse(read("package.json"))
  assert.ok(manifest.dependencies?.["@latch/sveltekit"], "@latch/sveltekit is a dependency")
  if (testCase.drizzle) {
    assert.match(
      read("src/lib/server/db/schema.ts"),
      /export \* from ['"]@latch\/drizzle-adapter\/sqlite['"]/,
      "Latch's tables are spread into the app's Drizzle schema",
    )
  }
}

/** The app's @latch/* dependencies as the packed tarballs (and those they depend on). */
function useTarballs(app, tarballs) {
  const file = join(app, "package.json")
  const manifest = JSON.parse(readFileSync(file, "utf8"))
  const named = Object.keys(manifest.dependencies).filter((name) => name.startsWith("@latch/"))
  // npm takes a dependency's @latch/core (and the Drizzle adapter's @latch/pg-adapter) from the
  // app's own tarball dependency rather than from the registry, where it may not be yet.
  const wanted = new Set([...named, "@latch/core"])
  if (wanted.has("@latch/drizzle-adapter")) wanted.add("@latch/pg-adapter")
  for (const name of wanted) manifest.dependencies[name] = `file:${tarballs[name]}`
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * Runs `task` after every task given before it has ended. `sv add` loads a local add-on by
 * linking it into the CLI's own node_modules when the link is not there yet: two at once can both
 * find it missing, and the second fails with EEXIST. The cases' `sv` steps take turns; their
 * installs and builds still run side by side.
 */
let svTurn = Promise.resolve()
function inTurn(task) {
  const result = svTurn.then(task)
  svTurn = result.catch(() => {})
  return result
}

/** `sv create` an app in `app`, then `sv add` Latch's add-on with the case's options. */
async function svCreateAndAdd(testCase, app, work) {
  await exec(
    sv,
    [
      "create",
      app,
      "--template",
      "minimal",
      "--types",
      "ts",
      ...(testCase.drizzle ? ["--add", `drizzle=${testCase.drizzle}`] : ["--no-add-ons"]),
      "--no-install",
    ],
    { cwd: work },
  )
  await exec(
    sv,
    [
      "add",
      `file:${here}=${testCase.options}`,
      "--cwd",
      app,
      "--no-git-check",
      "--no-download-check",
      "--no-install",
    ],
    { cwd: work },
  )
}

async function runCase(testCase, { work, tarballs }) {
  const started = Date.now()
  const app = join(work, testCase.options.replace(/[^a-z]+/g, "-"))
  step(`${testCase.name}: sv create, sv add ${testCase.options}`)
  await inTurn(() => svCreateAndAdd(testCase, app, work))
  checkWrittenFiles(app, testCase)
  useTarballs(app, tarballs)

  step(`${testCase.name}: npm install, npm run check, npm run build`)
  await exec(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    {
      cwd: app,
    },
  )
  const env = {}
  if (testCase.drizzle) {
    // What the add-on's next steps say: `npm run db:push` creates Latch's tables.
    env.DATABASE_URL = "file:local.db"
    await exec("npm", ["run", "db:push", "--", "--force"], { cwd: app, env })
  }
  const checked = await exec("npm", ["run", "check"], { cwd: app })
  assert.match(checked, /found 0 errors and 0 warnings/, "svelte-check")
  await exec("npm", ["run", "build"], { cwd: app })

  const mailbox = testCase.mailbox ? await startMailbox() : undefined
  const postgres = testCase.postgres ? await startPostgres({ database: "app" }) : undefined
  if (mailbox) env.AUTH_EMAIL_SERVER = `smtp://127.0.0.1:${mailbox.port}`
  if (postgres) env.DATABASE_URL = postgres.url
  if (testCase.options.includes("github")) {
    env.AUTH_GITHUB_ID = "test-client-id"
    env.AUTH_GITHUB_SECRET = "test-client-secret"
  }
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  step(`${testCase.name}: vite preview on ${origin}, signing in`)
  const server = start(
    join(app, "node_modules/.bin/vite"),
    ["preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { cwd: app, env },
  )
  try {
    const deadline = Date.now() + 30_000
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the app exited:\n${server.output}`)
      try {
        if ((await fetch(`${origin}/auth/providers`)).ok) break
      } catch {}
      if (Date.now() > deadline) throw new Error(`the app did not start:\n${server.output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    for (const flow of testCase.flows) await flow({ origin, app, mailbox })
  } catch (error) {
    console.error(`the app's output:\n${server.output}`)
    throw error
  } finally {
    await stop(server)
    await mailbox?.close()
    await postgres?.stop()
  }
  console.log(`✓ ${testCase.name} (${Math.round((Date.now() - started) / 1000)} s)`)
}

async function main() {
  const started = Date.now()
  const work = tempDir("latch-sv-", { keep: values.keep })
  const cases = CASES.filter((c) => !values.only || c.name.includes(values.only))
  if (cases.length === 0) throw new Error(`no case named like ${values.only}`)
  step(`packing Latch's packages into ${work}`)
  const tarballs = await packPackages(
    ["@latch/core", "@latch/sveltekit", "@latch/pg-adapter", "@latch/drizzle-adapter"],
    work,
  )
  const queue = [...cases]
  const jobs = Math.max(1, Math.min(Number(values.jobs) || 1, queue.length))
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let next = queue.shift(); next; next = queue.shift())
        await runCase(next, { work, tarballs })
    }),
  )
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`✓ ${cases.length} apps made with sv create and sv add @latch sign in (${seconds} s)`)
}

await main()
