// SvelteKit apps written for Auth.js, each type-checked, built and signed in to twice: on
// @auth/sveltekit 1.11.3 from the npm registry, and, with only its import names changed, on the
// packed @latch/core and @latch/sveltekit. Both servers of an app run with the same settings and go
// through the same flows; every step's status, redirect, cookies (their attributes) and body must
// be equal, except for the differences listed below (each one a row of
// docs/migrating-from-auth-js.md's "What differs").
//
//   compat/app     JWT sessions on the workspace's SvelteKit, served by adapter-node: every
//                  provider kind, the form actions and components, an action of the app's own
//                  that calls `signIn` and answers `fail(400)`, a sign-out that deletes the cookie
//   compat/app-db  database sessions on the lowest SvelteKit and Svelte @latch/sveltekit allows,
//                  configured per request from `platform.env` (its server.js serves it as a
//                  Cloudflare-style platform would), a session callback that reads the adapter
//                  user's own column, the same sign-out
import { cpSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"

import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, test } from "vitest"

import {
  exec,
  freePort,
  npmInstall,
  packPackages,
  removeTempDir,
  root,
  start,
  stop,
  tempDir,
} from "../../../scripts/install-lib.mjs"
import { CLIENTS, startOP, type OP } from "../../../packages/core/test/helpers/oidc-provider.ts"
import { runDatabaseFlows, runFlows, type Server, type Step } from "./flows.ts"
import { floorTooling, workspaceTooling } from "./tooling.ts"

/**
 * Where Latch answers differently from Auth.js on purpose. Each entry names the step and the
 * field, the exact normalized values on each side, and the row of the migration guide's
 * "What differs" table that says so. Anything else that differs fails the check.
 */
const EXPECTED_DIFFERENCES: {
  /** The step's name, or a pattern for a difference at every step it matches. */
  step: string | RegExp
  /**
   * `status`, `location`, `body` or `error`, or `cookie <name>`: what the step's response did to
   * that cookie.
   */
  field: string
  authjs: unknown
  latch: unknown
  guideRow: string
  reason: string
}[] = [
  {
    step: "csrf: GET /auth/csrf",
    field: "status",
    authjs: 404,
    latch: 200,
    guideRow: "SvelteKit: CSRF",
    reason:
      "@auth/sveltekit runs with skipCSRFCheck (relying on SvelteKit's origin check), so its csrf action is a 404; Latch checks same-origin or a double-submit token and keeps the csrf action answering",
  },
  {
    step: /./,
    field: "cookie authjs.callback-url",
    authjs: "set; Path=/; HttpOnly; SameSite=lax",
    latch: null,
    guideRow: "callback URL",
    reason:
      "Auth.js writes the callback URL of every request it answers (the hook's locals.auth() too) into its cookie; Latch only across the OAuth round trip",
  },
  {
    step: "csrf: GET /auth/csrf",
    field: "cookie authjs.csrf-token",
    authjs: "deleted; Path=/; HttpOnly; SameSite=lax; Max-Age",
    latch: "set; Path=/; HttpOnly; SameSite=lax",
    guideRow: "SvelteKit: CSRF",
    reason: "Latch's csrf action answers a token and sets its double-submit cookie",
  },
  ...["oauth", "db/oauth"].flatMap((prefix) => [
    {
      step: `${prefix}: POST /auth/signin/oidc`,
      field: "location",
      authjs:
        "<op>/auth?client_id=latch-basic&code_challenge=<code_challenge>&code_challenge_method=S256&redirect_uri=<app>/auth/callback/oidc&response_type=code&scope=openid profile email",
      latch:
        "<op>/auth?client_id=latch-basic&code_challenge=<code_challenge>&code_challenge_method=S256&nonce=<nonce>&redirect_uri=<app>/auth/callback/oidc&response_type=code&scope=openid profile email&state=<state>",
      guideRow: "OAuth checks",
      reason: "Latch sends state and, for OpenID Connect, nonce besides PKCE",
    },
    ...["state", "nonce"].flatMap((check) => [
      {
        step: `${prefix}: POST /auth/signin/oidc`,
        field: `cookie authjs.${check}`,
        authjs: null,
        latch: "set; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires",
        guideRow: "OAuth checks",
        reason: `the ${check} Latch sends is kept in its cookie across the round trip`,
      },
      {
        step: `${prefix}: GET /auth/callback/oidc`,
        field: `cookie authjs.${check}`,
        authjs: null,
        latch: "deleted; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires",
        guideRow: "OAuth checks",
        reason: `the callback spends the ${check}`,
      },
    ]),
  ]),
  {
    step: "oauth: POST <SignIn provider=github> form action",
    field: "cookie authjs.state",
    authjs: null,
    latch: "set; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires",
    guideRow: "OAuth checks",
    reason: "the state Latch sends is kept in its cookie across the round trip",
  },
  ...[
    "credentials/page: GET /auth/session",
    "credentials/page: GET /protected",
    "credentials/page: GET /auth/session after update",
    "credentials/action: GET /auth/session",
    "credentials/action: GET / signed in",
    "login: GET /auth/session",
    "login: GET /protected",
    "oauth: GET /auth/session",
    "email: GET /auth/session",
    "passkey: GET /auth/session after register",
    "passkey: GET /auth/session",
  ].map((step) => ({
    step,
    field: "cookie authjs.session-token",
    authjs: "set; Path=/; HttpOnly; SameSite=lax; Expires",
    latch: null,
    guideRow: "session cookie re-issue",
    reason:
      "Auth.js re-issues the session cookie on every read (the hook's locals.auth() too); Latch once updateAge has passed",
  })),
  {
    step: "oauth: the OP redirects back",
    field: "location",
    authjs: "<app>/auth/callback/oidc?code=<code>&iss=<iss>",
    latch: "<app>/auth/callback/oidc?code=<code>&iss=<iss>&state=<state>",
    guideRow: "OAuth checks",
    reason: "the provider returns the state Latch sent",
  },
  {
    step: "oauth: POST <SignIn provider=github> form action",
    field: "location",
    authjs:
      "https://github.com/login/oauth/authorize?client_id=github-client&code_challenge=<code_challenge>&code_challenge_method=S256&prompt=login&redirect_uri=<listen>/auth/callback/github&response_type=code&scope=read:user user:email",
    latch:
      "https://github.com/login/oauth/authorize?client_id=github-client&code_challenge=<code_challenge>&code_challenge_method=S256&prompt=login&redirect_uri=<app>/auth/callback/github&response_type=code&scope=read:user user:email&state=<state>",
    guideRow: "OAuth checks; the site's origin",
    reason:
      "Latch adds state, and builds redirect_uri from ORIGIN where @auth/sveltekit's form action builds it from the Host header (127.0.0.1 here)",
  },
  {
    step: "credentials/page: GET /auth/signin",
    field: "body",
    authjs: { form: { action: "<app>/auth/callback/credentials", fields: ["csrfToken"] } },
    latch: {
      form: { action: "<app>/auth/callback/credentials", fields: ["callbackUrl", "csrfToken"] },
    },
    guideRow: "callback URL",
    reason:
      "Latch's built-in sign-in page posts the callbackUrl it was opened with; Auth.js keeps it in a cookie",
  },
  {
    step: "credentials/page: POST wrong password",
    field: "location",
    authjs: "<app>/auth/signin?code=<code>&error=CredentialsSignin",
    latch: "<app>/auth/signin?callbackUrl=<app>/protected&code=<code>&error=CredentialsSignin",
    guideRow: "callback URL",
    reason: "a failed attempt sends the user back to the sign-in page with the callbackUrl kept",
  },
  {
    step: "credentials/action: GET /signin",
    field: "body",
    authjs: {
      form: {
        action: "<app>/signin",
        hidden: { callbackUrl: "/protected", providerId: "credentials", redirectTo: "/protected" },
      },
    },
    latch: {
      form: {
        action: "<app>/signin",
        hidden: { providerId: "credentials", redirectTo: "/protected" },
      },
    },
    guideRow: "SvelteKit: components",
    reason:
      "<SignIn> renders only the fields the form action reads; the next step's redirect is the same",
  },
  {
    step: "oauth: GET / signed out",
    field: "body",
    authjs: {
      github: {
        action: "<app>/signin",
        hidden: {
          "authorizationParams-prompt": "login",
          callbackUrl: "/protected",
          providerId: "github",
          redirect: "/protected",
          redirectTo: "/protected",
        },
      },
    },
    latch: {
      github: {
        action: "<app>/signin",
        hidden: {
          "authorizationParams-prompt": "login",
          providerId: "github",
          redirectTo: "/protected",
        },
      },
    },
    guideRow: "SvelteKit: components",
    reason:
      "<SignIn> renders only the fields the form action reads; the next step's redirect is the same",
  },
  ...["email", "db/email"].flatMap((prefix) => [
    {
      step: `${prefix}: POST /auth/signin/nodemailer`,
      field: "location",
      authjs: "<app>/auth/verify-request?provider=nodemailer&type=email",
      latch: "<app>/auth/verify-request?host=example.com&provider=nodemailer&type=email",
      guideRow: "email links",
      reason: "the verify-request page is told the mail's domain, to name it",
    },
    {
      step: `${prefix}: GET the link`,
      field: "status",
      authjs: 302,
      latch: 200,
      guideRow: "email links",
      reason:
        "the link opens a page whose button signs in, so that a mail scanner's visit spends nothing",
    },
    {
      step: `${prefix}: GET the link`,
      field: "location",
      authjs: "<app>/protected",
      latch: null,
      guideRow: "email links",
      reason: "the page answers the GET; its button redirects where Auth.js's GET does",
    },
    {
      step: `${prefix}: POST the link's page`,
      field: "status",
      authjs: "(step missing)",
      latch: 302,
      guideRow: "email links",
      reason: "the button of the page the link opens: Auth.js has no page",
    },
    {
      step: `${prefix}: POST the link's page`,
      field: "location",
      authjs: "(step missing)",
      latch: "<app>/protected",
      guideRow: "email links",
      reason: "the button goes where Auth.js's GET of the link goes",
    },
    ...(["body", "error"] as const).map((field) => ({
      step: `${prefix}: POST the link's page`,
      field,
      authjs: "(step missing)",
      latch: undefined,
      guideRow: "email links",
      reason: "the button's step has no body and no error; Auth.js has no such step",
    })),
    {
      step: `${prefix}: GET the link`,
      field: "cookie authjs.session-token",
      authjs: "set; Path=/; HttpOnly; SameSite=lax; Expires",
      latch: null,
      guideRow: "email links",
      reason: "the GET spends nothing: no session yet",
    },
    {
      step: `${prefix}: POST the link's page`,
      field: "cookie authjs.session-token",
      authjs: "(step missing)",
      latch: "set; Path=/; HttpOnly; SameSite=lax; Expires",
      guideRow: "email links",
      reason: "the button signs in, with the cookie Auth.js's GET of the link sets",
    },
  ]),
  {
    step: "passkey: POST callback (register)",
    field: "location",
    authjs: "<app>/protected",
    latch: "<app>/",
    guideRow: "callback URL",
    reason:
      "the request carries no callbackUrl: Auth.js reuses the one an earlier request left in its cookie, Latch goes to the site's root",
  },
  ...[
    "credentials/action: POST right password",
    "credentials/action: POST <SignOut>",
    "login: POST right password",
    "oauth: POST <SignIn provider=github> form action",
  ].map((step) => ({
    step,
    field: "status" as const,
    authjs: 302,
    latch: 303,
    guideRow: "SvelteKit: form actions",
    reason: "a form action's redirect is a 303 (SvelteKit's redirect after a POST)",
  })),
  ...["credentials/action: POST right password", "login: POST right password"].map((step) => ({
    step,
    field: "location",
    authjs: "<listen>/protected",
    latch: "<app>/protected",
    guideRow: "the site's origin",
    reason:
      "@auth/sveltekit's form actions build redirects from the Host header, Latch from ORIGIN",
  })),
  {
    step: "credentials/action: POST <SignOut>",
    field: "location",
    authjs: "<listen>/",
    latch: "<app>/",
    guideRow: "the site's origin",
    reason:
      "@auth/sveltekit's form actions build redirects from the Host header, Latch from ORIGIN",
  },
  ...["authjs.session-token", "authjs.pkce.code_verifier", "authjs.challenge"].map((name) => ({
    step: /./,
    field: `cookie ${name}`,
    authjs: "deleted; Path=/; HttpOnly; SameSite=lax; Max-Age",
    latch: "deleted; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires",
    guideRow: "cookies",
    reason:
      "Latch deletes a cookie with Max-Age=0 and an Expires in the past, for browsers that read only Expires",
  })),
  ...["latch.proof", "latch.email-request"].flatMap((name) =>
    [null, "(step missing)"].flatMap((authjs) =>
      ["set", "deleted"].map((what) => ({
        step: /./,
        field: `cookie ${name}`,
        authjs,
        latch: `${what}; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires`,
        guideRow: "new cookies",
        reason:
          "Latch's own cookies: when this browser last proved who it is (account changes), the browser that asked for an email link",
      })),
    ),
  ),
  {
    step: /^db\/(email|oauth): GET \/(auth\/session|protected)$/,
    field: "cookie authjs.session-token",
    authjs: "set; Path=/; HttpOnly; SameSite=lax; Expires",
    latch: null,
    guideRow: "session cookie re-issue",
    reason:
      "Auth.js re-sends a database session's cookie on every read; Latch once updateAge has passed since the expiry was last pushed",
  },
  {
    step: /^db\/email: GET \/api\/rows/,
    field: "body",
    authjs: { accounts: 0, sessions: 1, users: 1, verificationTokens: 0 },
    latch: { accounts: 1, sessions: 1, users: 1, verificationTokens: 0 },
    guideRow: "email sign-in: account rows",
    reason: "Latch stores an email account for an email sign-in; Auth.js stores none",
  },
  {
    step: "db/oauth: GET /api/rows after sign-out",
    field: "body",
    authjs: { accounts: 1, sessions: 1, users: 2, verificationTokens: 0 },
    latch: { accounts: 2, sessions: 1, users: 2, verificationTokens: 0 },
    guideRow: "email sign-in: account rows",
    reason: "the email account of the earlier email sign-in, besides the OpenID one on both",
  },
  {
    step: "oauth: POST /auth/signout",
    field: "location",
    authjs: "<app>/protected",
    latch: "<app>/",
    guideRow: "callback URL",
    reason:
      "the sign-out names no callbackUrl: Auth.js reuses the one its cookie still holds from the OAuth sign-in, Latch forgot it when the callback was back and goes to the site's root",
  },
  ...(
    [
      [
        "db/email: GET /auth/session",
        {
          email: "ada@example.com",
          emailVerified: "<emailVerified>",
          id: "user-1",
          image: null,
          name: "Ada",
          role: "admin",
        },
      ],
      [
        "db/oauth: GET /auth/session",
        {
          email: "alice@example.com",
          emailVerified: null,
          id: "user-2",
          image: "https://img.example/alice.png",
          name: "Alice Liddell",
          role: "member",
        },
      ],
    ] as const
  ).map(([step, user]) => ({
    step,
    field: "body",
    // Keys in the order the recorded body has them (sorted).
    authjs: { expires: "<expires>", sessionToken: "<sessionToken>", user, userId: user.id },
    latch: { expires: "<expires>", user, userId: user.id },
    guideRow: "database sessions: JSON",
    reason:
      "the callback returns the session it was given: Latch answers all of it but the session token, which page scripts never get",
  })),
  {
    step: /: GET \/auth\/callback\/oidc$/,
    field: "cookie authjs.callback-url",
    authjs: null,
    latch: "deleted; Path=/; HttpOnly; SameSite=lax; Max-Age; Expires",
    guideRow: "callback URL",
    reason: "Latch forgets the callback URL once the OAuth round trip is back",
  },
]

const SECRET = "compat-check-secret-0123456789abcdefghijklmnop"

/** The settings every server is given: in its environment, or as its platform's bindings. */
interface Settings {
  secret: string
  op: OP
  mailbox: Mailbox
}

interface App {
  /** Its directory under compat/. */
  name: string
  /** SvelteKit and Svelte at the floor of @latch/sveltekit's peer ranges (else the workspace's). */
  floor: boolean
  /** What it installs from the registry on Auth.js, and on Latch besides the packed packages. */
  authjs: Record<string, string>
  latch: Record<string, string>
  /**
   * `adapter-node`: build/index.js, with the settings in the environment. `platform`: the app's
   * server.js, with the settings only as `platform.env` (its .dev.vars file).
   */
  serve: "adapter-node" | "platform"
  flows: (server: Server) => Promise<Step[]>
}

const APPS: App[] = [
  {
    name: "app",
    floor: false,
    authjs: {
      "@simplewebauthn/browser": "^9.0.1",
      "@simplewebauthn/server": "^9.0.3",
      nodemailer: "^7.0.7",
    },
    latch: {
      "@simplewebauthn/browser": "^14.0.0",
      "@simplewebauthn/server": "^14.0.3",
      nodemailer: "^7.0.7",
    },
    serve: "adapter-node",
    flows: runFlows,
  },
  {
    name: "app-db",
    floor: true,
    authjs: { nodemailer: "^7.0.7" },
    latch: { nodemailer: "^7.0.7" },
    serve: "platform",
    flows: runDatabaseFlows,
  },
]

interface Side {
  app: App
  name: "Auth.js" | "Latch"
  dir: string
  port: number
  origin: string
  /** SvelteKit's and Svelte's installed versions. */
  versions: string
  typeErrors: string[]
  checkSummary: string
  steps: Step[]
  server?: ReturnType<typeof start>
  failure?: string
}

/** Every file of an app (no build output), relative to it. */
function appFiles(app: string, dir = app): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if ([".svelte-kit", "node_modules", "build"].includes(name)) return []
    return statSync(path).isDirectory() ? appFiles(app, path) : [relative(app, path)]
  })
}

/** An app copied as it is (Auth.js) or with its import names changed (Latch). */
function copyApp(
  app: App,
  dir: string,
  latch: boolean,
  dependencies: Record<string, string>,
  tooling: Record<string, string>,
) {
  const source = join(root, "compat", app.name)
  let renamed = 0
  for (const file of appFiles(source)) {
    const text = readFileSync(join(source, file), "utf8")
    cpSync(join(source, file), join(dir, file))
    writeFileSync(
      join(dir, file),
      latch
        ? text.replace(/@auth\/(core|sveltekit)(?=["'/])/g, (_, name: string) => {
            renamed++
            return `@latch/${name}`
          })
        : text,
    )
  }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name: `compat-${app.name}-${latch ? "latch" : "authjs"}`,
        private: true,
        type: "module",
        dependencies,
        devDependencies: tooling,
      },
      null,
      2,
    ),
  )
  return renamed
}

/** svelte-check's diagnostics, one string per error or warning. */
function diagnostics(output: string): string[] {
  const found: string[] = []
  for (const block of output.split(/\n(?=[^\s:]+:\d+:\d+\n)/)) {
    const match = /^([^\s:]+:\d+:\d+)\n(Error|Warn)[^:]*: ([\s\S]*?)(?:\n\n|$)/.exec(block.trim())
    if (match) found.push(`${match[1]} ${match[2]}: ${match[3]!.trim()}`)
  }
  return found
}

/** A function that runs the tasks given to it, at most `limit` at a time. */
function limiter(limit: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A finished task hands its place to the next waiting one.
    if (running < limit) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}

/** Type-checks a side with svelte-check, then builds it with Vite. */
async function checkAndBuild(side: Side) {
  const bin = (name: string) => join(side.dir, "node_modules/.bin", name)
  const began = Date.now()
  const seconds = (from: number) => `${Math.round((Date.now() - from) / 1000)} s`
  try {
    await exec(bin("svelte-kit"), ["sync"], { cwd: side.dir })
    const check = start(bin("svelte-check"), ["--output", "human", "--fail-on-warnings"], {
      cwd: side.dir,
    })
    await check.exited
    side.checkSummary =
      /svelte-check found [^\n]*/.exec(check.output)?.[0] ?? check.output.slice(-2000)
    side.typeErrors = diagnostics(check.output.replaceAll(`${side.dir}/`, ""))
    const checked = seconds(began)
    const building = Date.now()
    for (const error of side.typeErrors) console.log(`  ${side.name} type error: ${error}\n`)
    await exec(bin("vite"), ["build"], { cwd: side.dir })
    console.log(
      `• compat/${side.app.name} on ${side.name}: ${side.checkSummary} (${checked}), ` +
        `built (${seconds(building)})`,
    )
  } catch (error) {
    side.failure = `svelte-check or vite build failed: ${(error as Error).message}`
  }
}

/** Starts a side's server: adapter-node's, or the app's own platform entry. */
function serve(side: Side, { secret, op, mailbox }: Settings) {
  const settings = {
    AUTH_SECRET: secret,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: CLIENTS.basic.clientId,
    OIDC_CLIENT_SECRET: CLIENTS.basic.clientSecret,
    SMTP_PORT: String(mailbox.port),
  }
  const where = { HOST: "127.0.0.1", PORT: String(side.port), ORIGIN: side.origin }
  if (side.app.serve === "platform") {
    writeFileSync(
      join(side.dir, ".dev.vars"),
      Object.entries(settings)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(""),
    )
    return start(process.execPath, ["server.js"], {
      cwd: side.dir,
      env: { ...where, NODE_ENV: "production" },
    })
  }
  return start(process.execPath, ["build/index.js"], {
    cwd: side.dir,
    env: {
      ...where,
      ...settings,
      AUTH_TRUST_HOST: "true",
      AUTH_GITHUB_ID: "github-client",
      AUTH_GITHUB_SECRET: "github-secret",
      NODE_ENV: "production",
    },
  })
}

async function waitUntilUp(side: Side) {
  const deadline = Date.now() + 20_000
  for (;;) {
    if (side.server!.exitCode !== null)
      throw new Error(`${side.name} exited:\n${side.server!.output}`)
    try {
      if ((await fetch(`http://127.0.0.1:${side.port}/auth/providers`)).status < 500) return
    } catch {}
    if (Date.now() > deadline)
      throw new Error(`${side.name} did not start:\n${side.server!.output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const sides: Side[] = []
let work = ""
let op: OP | undefined
let mailbox: Mailbox | undefined
const started = Date.now()
const since = () => `${Math.round((Date.now() - started) / 1000)} s`

beforeAll(async () => {
  work = tempDir("latch-compat-app-")
  for (const app of APPS) {
    for (const name of ["Auth.js", "Latch"] as const) {
      const port = await freePort()
      sides.push({
        app,
        name,
        dir: tempDir(`latch-compat-${app.name}-${name === "Latch" ? "latch" : "authjs"}-`),
        port,
        origin: `http://localhost:${port}`,
        versions: "",
        typeErrors: [],
        checkSummary: "",
        steps: [],
      })
    }
  }
  // Each side installs as soon as what it needs is known (npm's cache is shared: what one install
  // fetched, the others read), then type-checks and builds, two at a time: svelte-check and Vite
  // keep a core busy each.
  const tarballs = packPackages(["@latch/core", "@latch/sveltekit"], work)
  const floor = floorTooling()
  const busy = limiter(2)
  await Promise.all(
    sides.map(async (side) => {
      const { app } = side
      const tooling = app.floor ? await floor : workspaceTooling()
      const latch = side.name === "Latch"
      const packed = latch ? await tarballs : {}
      const renamed = copyApp(
        app,
        side.dir,
        latch,
        latch
          ? {
              "@latch/core": `file:${packed["@latch/core"]}`,
              "@latch/sveltekit": `file:${packed["@latch/sveltekit"]}`,
              ...app.latch,
            }
          : { "@auth/core": "0.41.3", "@auth/sveltekit": "1.11.3", ...app.authjs },
        tooling,
      )
      if (latch) {
        console.log(`• compat/${app.name} on Latch: ${renamed} import names changed, nothing else`)
      }
      try {
        await npmInstall(side.dir, process.execPath)
      } catch (error) {
        side.failure = (error as Error).message
        return
      }
      const version = (name: string) =>
        JSON.parse(readFileSync(join(side.dir, "node_modules", name, "package.json"), "utf8"))
          .version as string
      side.versions = `SvelteKit ${version("@sveltejs/kit")}, Svelte ${version("svelte")}`
      console.log(`• compat/${app.name} on ${side.name}: installed, ${side.versions} (${since()})`)
      for (const name of app.floor ? ["@sveltejs/kit", "svelte"] : []) {
        if (version(name) !== tooling[name]) {
          side.failure = `${name} ${version(name)} installed, not the floor ${tooling[name]}`
        }
      }
      await busy(() => checkAndBuild(side))
    }),
  )
  console.log(`• built (${since()})`)

  mailbox = await startMailbox({ port: 0 })
  op = await startOP({
    configuration: {
      clients: [
        {
          client_id: CLIENTS.basic.clientId,
          client_secret: CLIENTS.basic.clientSecret,
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code"],
          response_types: ["code"],
          redirect_uris: sides.map((side) => `${side.origin}/auth/callback/oidc`),
        },
      ],
    },
  })
  for (const side of sides) {
    if (!side.failure) side.server = serve(side, { secret: SECRET, op, mailbox })
  }
  // One server at a time: the flows of both sides use the same mail addresses.
  for (const side of sides) {
    if (!side.server) continue
    try {
      await waitUntilUp(side)
      const server: Server = {
        origin: side.origin,
        listen: `http://127.0.0.1:${side.port}`,
        opOrigin: new URL(op.issuer).origin,
        mailbox,
      }
      side.steps = await side.app.flows(server)
    } catch (error) {
      side.failure = `${(error as Error).message}\n${side.server.output.slice(-3000)}`
    }
  }
}, 600_000)

afterAll(async () => {
  for (const side of sides) if (side.server) await stop(side.server)
  await op?.stop()
  await mailbox?.close()
  for (const side of sides) removeTempDir(side.dir)
  if (work) removeTempDir(work)
  // Four installed apps (their node_modules) to delete: seconds on a busy machine, never a result.
}, 120_000)

/** A step's fields as compared: its own, then `cookie <name>` for each cookie either side set. */
function fields(a: Step | undefined, l: Step | undefined) {
  const cookies = [...new Set([...Object.keys(a?.cookies ?? {}), ...Object.keys(l?.cookies ?? {})])]
  return [
    ...(["status", "location", "body", "error"] as const).map((field) => ({
      field,
      authjs: a ? a[field] : "(step missing)",
      latch: l ? l[field] : "(step missing)",
    })),
    ...cookies.sort().map((name) => ({
      field: `cookie ${name}`,
      authjs: a ? (a.cookies?.[name] ?? null) : "(step missing)",
      latch: l ? (l.cookies?.[name] ?? null) : "(step missing)",
    })),
  ]
}

/** The differences between the two runs, each marked expected (with its guide row) or not. */
function compare(authjs: Step[], latch: Step[]) {
  const names = [...new Set([...authjs, ...latch].map((s) => s.step))]
  const differences: {
    step: string
    field: string
    authjs: unknown
    latch: unknown
    expected?: string
  }[] = []
  for (const name of names) {
    const a = authjs.find((s) => s.step === name)
    const l = latch.find((s) => s.step === name)
    for (const { field, authjs: av, latch: lv } of fields(a, l)) {
      if (JSON.stringify(av) === JSON.stringify(lv)) continue
      const known = EXPECTED_DIFFERENCES.find(
        (d) =>
          (typeof d.step === "string" ? d.step === name : d.step.test(name)) &&
          d.field === field &&
          JSON.stringify(d.authjs) === JSON.stringify(av) &&
          JSON.stringify(d.latch) === JSON.stringify(lv),
      )
      differences.push({ step: name, field, authjs: av, latch: lv, expected: known?.guideRow })
    }
  }
  return differences
}

test("every expected difference names a row of the migration guide's What differs table", () => {
  const guide = readFileSync(join(root, "docs/migrating-from-auth-js.md"), "utf8")
  const table = guide.slice(guide.indexOf("## What differs"), guide.indexOf("## New in Latch"))
  const rows = new Set([...table.matchAll(/^\| ([^|]+?) +\|/gm)].map((match) => match[1]!.trim()))
  const missing = [...new Set(EXPECTED_DIFFERENCES.flatMap((d) => d.guideRow.split("; ")))].filter(
    (row) => !rows.has(row) && !rows.has(`\`${row}\``),
  )
  expect(missing).toEqual([])
})

describe.each(APPS.map((app) => [app.name, app] as const))(
  "compat/%s, on Auth.js and on Latch",
  (_, app) => {
    const side = (name: Side["name"]) => sides.find((s) => s.app === app && s.name === name)!

    test("type-checks with 0 errors and 0 warnings on Auth.js (the app is right)", () => {
      const authjs = side("Auth.js")
      expect(authjs.failure).toBeUndefined()
      expect(authjs.typeErrors, authjs.checkSummary).toEqual([])
    })

    test("type-checks with 0 errors and 0 warnings on Latch, with only the import names changed", () => {
      const latch = side("Latch")
      expect(latch.typeErrors, latch.checkSummary).toEqual([])
    })

    test("the app's own /sign-out, deleting the session cookie by name, leaves no session on either", () => {
      for (const s of [side("Auth.js"), side("Latch")]) {
        const after = s.steps.filter((step) => step.step.endsWith(" after /sign-out"))
        const sessions = after.filter((step) => step.step.includes("/auth/session"))
        const pages = after.filter((step) => step.step.includes("/protected"))
        expect(sessions.length, s.name).toBeGreaterThan(0)
        for (const step of sessions)
          expect([step.step, step.body], s.name).toEqual([step.step, null])
        for (const step of pages) expect([step.step, step.status], s.name).toEqual([step.step, 303])
      }
    })

    test("every flow gives Auth.js's statuses, redirects, cookies and bodies, but for the guide's differences", () => {
      const [authjs, latch] = [side("Auth.js"), side("Latch")]
      if (process.env.COMPAT_STEPS) {
        for (const s of [authjs, latch]) {
          console.log(s.name, JSON.stringify(s.steps, null, 1), s.server?.output)
        }
      }
      expect(authjs.failure).toBeUndefined()
      expect(latch.failure).toBeUndefined()
      const broken = authjs.steps.filter((s) => s.error)
      expect(broken, "a flow broke on Auth.js: the check itself is wrong").toEqual([])
      const differences = compare(authjs.steps, latch.steps)
      const unexpected = differences.filter((d) => !d.expected)
      console.log(
        `\n• compat/${app.name} (${authjs.versions}): ${authjs.steps.length} steps on Auth.js, ` +
          `${latch.steps.length} on Latch; ${differences.length - unexpected.length} expected ` +
          `differences, ${unexpected.length} unexpected (${since()})`,
      )
      for (const d of differences) {
        console.log(
          `  ${d.expected ? `expected (${d.expected})` : "UNEXPECTED"} — ${d.step} [${d.field}]\n` +
            `    Auth.js: ${JSON.stringify(d.authjs)}\n    Latch:   ${JSON.stringify(d.latch)}`,
        )
      }
      expect(unexpected).toEqual([])
    })
  },
)
