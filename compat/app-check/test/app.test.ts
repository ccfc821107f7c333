// One SvelteKit app written for Auth.js (compat/app), type-checked, built and signed in to twice:
// on @auth/sveltekit 1.11.3 from the npm registry, and, with only its import names changed, on
// the packed @latch/core and @latch/sveltekit. Both servers run with the same environment and go
// through the same flows; every step's status, redirect and session must be equal, except for the
// differences listed below (each one a row of docs/migrating-from-auth-js.md's "What differs").
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
import { runFlows, type Server, type Step } from "./flows.ts"

/**
 * Where Latch answers differently from Auth.js on purpose. Each entry names the step and the
 * field, the exact normalized values on each side, and the row of the migration guide's
 * "What differs" table that says so. Anything else that differs fails the check.
 */
const EXPECTED_DIFFERENCES: {
  step: string
  field: keyof Step
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
    step: "oauth: POST /auth/signin/oidc",
    field: "location",
    authjs:
      "<op>/auth?client_id=latch-basic&code_challenge=<code_challenge>&code_challenge_method=S256&redirect_uri=<app>/auth/callback/oidc&response_type=code&scope=openid profile email",
    latch:
      "<op>/auth?client_id=latch-basic&code_challenge=<code_challenge>&code_challenge_method=S256&nonce=<nonce>&redirect_uri=<app>/auth/callback/oidc&response_type=code&scope=openid profile email&state=<state>",
    guideRow: "OAuth checks",
    reason: "Latch sends state and, for OpenID Connect, nonce besides PKCE",
  },
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
  {
    step: "email: POST /auth/signin/nodemailer",
    field: "location",
    authjs: "<app>/auth/verify-request?provider=nodemailer&type=email",
    latch: "<app>/auth/verify-request?host=example.com&provider=nodemailer&type=email",
    guideRow: "email links",
    reason: "the verify-request page is told the mail's domain, to name it",
  },
  {
    step: "email: GET the link",
    field: "status",
    authjs: 302,
    latch: 200,
    guideRow: "email links",
    reason:
      "the link opens a page whose button signs in, so that a mail scanner's visit spends nothing",
  },
  {
    step: "email: GET the link",
    field: "location",
    authjs: "<app>/protected",
    latch: null,
    guideRow: "email links",
    reason: "the page answers the GET; its button redirects where Auth.js's GET does",
  },
  {
    step: "email: POST the link's page",
    field: "status",
    authjs: "(step missing)",
    latch: 302,
    guideRow: "email links",
    reason: "the button of the page the link opens: Auth.js has no page",
  },
  {
    step: "email: POST the link's page",
    field: "location",
    authjs: "(step missing)",
    latch: "<app>/protected",
    guideRow: "email links",
    reason: "the button goes where Auth.js's GET of the link goes",
  },
  ...(["body", "error"] as const).map((field) => ({
    step: "email: POST the link's page",
    field,
    authjs: "(step missing)",
    latch: undefined,
    guideRow: "email links",
    reason: "the button's step has no body and no error; Auth.js has no such step",
  })),
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
    "oauth: POST <SignIn provider=github> form action",
  ].map((step) => ({
    step,
    field: "status" as const,
    authjs: 302,
    latch: 303,
    guideRow: "SvelteKit: form actions",
    reason: "a form action's redirect is a 303 (SvelteKit's redirect after a POST)",
  })),
  {
    step: "credentials/action: POST right password",
    field: "location",
    authjs: "<listen>/protected",
    latch: "<app>/protected",
    guideRow: "the site's origin",
    reason:
      "@auth/sveltekit's form actions build redirects from the Host header, Latch from ORIGIN",
  },
  {
    step: "credentials/action: POST <SignOut>",
    field: "location",
    authjs: "<listen>/",
    latch: "<app>/",
    guideRow: "the site's origin",
    reason:
      "@auth/sveltekit's form actions build redirects from the Host header, Latch from ORIGIN",
  },
]

const APP = join(root, "compat/app")
const SECRET = "compat-check-secret-0123456789abcdefghijklmnop"
const workspaceKit = JSON.parse(readFileSync(join(root, "packages/sveltekit/package.json"), "utf8"))
  .devDependencies as Record<string, string>
const tooling = Object.fromEntries(
  [
    "@sveltejs/adapter-node",
    "@sveltejs/kit",
    "@sveltejs/vite-plugin-svelte",
    "svelte",
    "svelte-check",
    "typescript",
    "vite",
  ].map((name) => [name, workspaceKit[name]!]),
)

interface Side {
  name: "Auth.js" | "Latch"
  dir: string
  port: number
  origin: string
  typeErrors: string[]
  checkSummary: string
  steps: Step[]
  server?: ReturnType<typeof start>
  failure?: string
}

/** Every file of the app (no build output), relative to it. */
function appFiles(dir = APP): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if ([".svelte-kit", "node_modules", "build"].includes(name)) return []
    return statSync(path).isDirectory() ? appFiles(path) : [relative(APP, path)]
  })
}

/** The app copied as it is (Auth.js) or with its import names changed (Latch). */
function copyApp(dir: string, latch: boolean, dependencies: Record<string, string>) {
  let renamed = 0
  for (const file of appFiles()) {
    const source = readFileSync(join(APP, file), "utf8")
    const text = latch
      ? source.replace(/@auth\/(core|sveltekit)(?=["'/])/g, (_, name: string) => {
          renamed++
          return `@latch/${name}`
        })
      : source
    cpSync(join(APP, file), join(dir, file))
    writeFileSync(join(dir, file), text)
  }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name: latch ? "compat-app-latch" : "compat-app-authjs",
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

beforeAll(async () => {
  work = tempDir("latch-compat-app-")
  const tarballs = await packPackages(["@latch/core", "@latch/sveltekit"], work)
  const authjsDir = tempDir("latch-compat-authjs-")
  const latchDir = tempDir("latch-compat-latch-")
  copyApp(authjsDir, false, {
    "@auth/core": "0.41.3",
    "@auth/sveltekit": "1.11.3",
    "@simplewebauthn/browser": "^9.0.1",
    "@simplewebauthn/server": "^9.0.3",
    nodemailer: "^7.0.7",
  })
  const renamed = copyApp(latchDir, true, {
    "@latch/core": `file:${tarballs["@latch/core"]}`,
    "@latch/sveltekit": `file:${tarballs["@latch/sveltekit"]}`,
    "@simplewebauthn/browser": "^14.0.0",
    "@simplewebauthn/server": "^14.0.3",
    nodemailer: "^7.0.7",
  })
  console.log(`• the Latch copy: ${renamed} import names changed, nothing else`)
  for (const [name, dir] of [
    ["Auth.js", authjsDir],
    ["Latch", latchDir],
  ] as const) {
    const port = await freePort()
    sides.push({
      name,
      dir,
      port,
      origin: `http://localhost:${port}`,
      typeErrors: [],
      checkSummary: "",
      steps: [],
    })
  }
  await Promise.all(sides.map((side) => npmInstall(side.dir, process.execPath)))

  for (const side of sides) {
    const bin = (name: string) => join(side.dir, "node_modules/.bin", name)
    await exec(bin("svelte-kit"), ["sync"], { cwd: side.dir })
    const check = start(bin("svelte-check"), ["--output", "human", "--fail-on-warnings"], {
      cwd: side.dir,
    })
    await check.exited
    side.checkSummary =
      /svelte-check found [^\n]*/.exec(check.output)?.[0] ?? check.output.slice(-2000)
    side.typeErrors = diagnostics(check.output.replaceAll(`${side.dir}/`, ""))
    console.log(`• ${side.name}: ${side.checkSummary}`)
    for (const error of side.typeErrors) console.log(`  ${side.name} type error: ${error}\n`)
  }
  await Promise.all(
    sides.map(async (side) => {
      try {
        await exec(join(side.dir, "node_modules/.bin/vite"), ["build"], { cwd: side.dir })
      } catch (error) {
        side.failure = `vite build failed: ${(error as Error).message}`
      }
    }),
  )

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
    if (side.failure) continue
    side.server = start(process.execPath, ["build/index.js"], {
      cwd: side.dir,
      env: {
        HOST: "127.0.0.1",
        PORT: String(side.port),
        ORIGIN: side.origin,
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_GITHUB_ID: "github-client",
        AUTH_GITHUB_SECRET: "github-secret",
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: CLIENTS.basic.clientId,
        OIDC_CLIENT_SECRET: CLIENTS.basic.clientSecret,
        SMTP_PORT: String(mailbox.port),
        NODE_ENV: "production",
      },
    })
  }
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
      side.steps = await runFlows(server)
    } catch (error) {
      side.failure = `${(error as Error).message}\n${side.server.output.slice(-3000)}`
    }
  }
}, 290_000)

afterAll(async () => {
  for (const side of sides) if (side.server) await stop(side.server)
  await op?.stop()
  await mailbox?.close()
  for (const side of sides) removeTempDir(side.dir)
  if (work) removeTempDir(work)
})

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
    for (const field of ["status", "location", "body", "error"] as const) {
      const av = a ? a[field] : "(step missing)"
      const lv = l ? l[field] : "(step missing)"
      if (JSON.stringify(av) === JSON.stringify(lv)) continue
      const known = EXPECTED_DIFFERENCES.find(
        (d) =>
          d.step === name &&
          d.field === field &&
          JSON.stringify(d.authjs) === JSON.stringify(av) &&
          JSON.stringify(d.latch) === JSON.stringify(lv),
      )
      differences.push({ step: name, field, authjs: av, latch: lv, expected: known?.guideRow })
    }
  }
  return differences
}

describe("the compat app, on Auth.js and on Latch", () => {
  test("type-checks with 0 errors and 0 warnings on Auth.js (the app is right)", () => {
    const authjs = sides.find((s) => s.name === "Auth.js")!
    expect(authjs.typeErrors, authjs.checkSummary).toEqual([])
    expect(authjs.failure).toBeUndefined()
  })

  test("type-checks with 0 errors and 0 warnings on Latch, with only the import names changed", () => {
    const latch = sides.find((s) => s.name === "Latch")!
    expect(latch.typeErrors, latch.checkSummary).toEqual([])
  })

  test("every flow gives Auth.js's statuses, redirects and sessions, but for the guide's differences", () => {
    const [authjs, latch] = sides as [Side, Side]
    if (process.env.COMPAT_STEPS) {
      for (const side of sides) {
        console.log(side.name, JSON.stringify(side.steps, null, 1), side.server?.output)
      }
    }
    expect(authjs.failure).toBeUndefined()
    expect(latch.failure).toBeUndefined()
    const broken = authjs.steps.filter((s) => s.error)
    expect(broken, "a flow broke on Auth.js: the check itself is wrong").toEqual([])
    const differences = compare(authjs.steps, latch.steps)
    const unexpected = differences.filter((d) => !d.expected)
    const seconds = Math.round((Date.now() - started) / 1000)
    console.log(
      `\n• compat app: ${authjs.steps.length} steps on Auth.js, ${latch.steps.length} on Latch; ` +
        `${differences.length - unexpected.length} expected differences, ${unexpected.length} unexpected (${seconds} s)`,
    )
    for (const d of differences) {
      console.log(
        `  ${d.expected ? `expected (${d.expected})` : "UNEXPECTED"} — ${d.step} [${d.field}]\n` +
          `    Auth.js: ${JSON.stringify(d.authjs)}\n    Latch:   ${JSON.stringify(d.latch)}`,
      )
    }
    expect(unexpected).toEqual([])
  })
})
