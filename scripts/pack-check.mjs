// The packages as a user gets them: `pnpm pack`s @latch/core and @latch/sveltekit, creates a
// SvelteKit app in a temporary directory outside the workspace that depends on the tarballs and
// on SvelteKit from the npm registry, installs it with npm, type-checks it with svelte-check,
// builds it with Vite and adapter-node, starts it on 127.0.0.1, and signs in with credentials
// over HTTP as a browser would (the app's own form action, and the built-in page with its CSRF
// token), then signs out. Everything it made is removed at the end, pass or fail.
//
//   node scripts/pack-check.mjs              SvelteKit 2 on this Node.js
//   node scripts/pack-check.mjs --kit floor  the lowest versions @latch/sveltekit's peer ranges
//                                            allow (SvelteKit 2.13.0 with Svelte 5.0.0), then
//                                            the same app on the lowest Svelte 4 they allow
//                                            (4.0.0: the server side and the client helpers)
//   node scripts/pack-check.mjs --kit 3 --node 22
//                                            SvelteKit 3 on Node.js 22 (installed from the npm
//                                            registry's `node` package when this is not 22)
//   --keep                                   leave the app's directory (to look into a failure)
//
// The packages must be built (`pnpm run build`).
import assert from "node:assert/strict"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { parseArgs } from "node:util"
import {
  browser,
  exec,
  findForm,
  formWith,
  freePort,
  nodeBinary,
  nodeEnv,
  npmInstall,
  packPackages,
  root,
  start,
  step,
  stop,
  tempDir,
} from "./install-lib.mjs"

const { values } = parseArgs({
  options: {
    kit: { type: "string", default: "2" },
    node: { type: "string" },
    keep: { type: "boolean", default: false },
  },
})
const kit = values.kit
if (!["2", "floor", "3"].includes(kit)) throw new Error(`--kit must be 2, floor or 3, not ${kit}`)
/** The SvelteKit major the app is laid out for. */
const major = kit === "3" ? "3" : "2"

const workspaceKit = JSON.parse(
  readFileSync(join(root, "packages/sveltekit/package.json"), "utf8"),
).devDependencies

const peers = JSON.parse(
  readFileSync(join(root, "packages/sveltekit/package.json"), "utf8"),
).peerDependencies

/** The lowest version a peer range allows within `major` ("^2.13.0 || ^3.0.0", 2 → "2.13.0"). */
function lowest(range, major) {
  const floors = range.split("||").map((part) => /^\s*\^?(\d+\.\d+\.\d+)\s*$/.exec(part)?.[1])
  const floor = floors.find((version) => version?.split(".")[0] === String(major))
  if (!floor) throw new Error(`no plain ^${major}.x.y in the peer range ${range}`)
  return floor
}

/**
 * The lowest @sveltejs/kit 2 and svelte 5 that @latch/sveltekit's peer ranges allow, exactly,
 * and the tools around them pinned to releases those accept. SvelteKit 2.13 takes Vite 5 or 6
 * and vite-plugin-svelte 3 to 5; vite-plugin-svelte 4, the first for Svelte 5, runs on Vite 5:
 * the oldest pipeline a Svelte 5 app can have (and the one on which SvelteKit 2.12, the first
 * with `$app/state`, gave the server the browser's `page`). Pinned rather than ranges, so that a
 * later release (a new adapter-node 5 asking for a newer SvelteKit) cannot change what is
 * checked. adapter-node 5 asks for SvelteKit ^2.4; svelte-check 4 takes Svelte 4 and 5.
 */
function floorDependencies() {
  return {
    "@sveltejs/adapter-node": "5.5.7",
    "@sveltejs/kit": lowest(peers["@sveltejs/kit"], 2),
    "@sveltejs/vite-plugin-svelte": "4.0.4",
    svelte: lowest(peers.svelte, 5),
    "svelte-check": "4.7.8",
    typescript: workspaceKit.typescript,
    vite: "5.4.21",
  }
}

/**
 * The same app on the lowest Svelte 4 the peer range allows: vite-plugin-svelte 3, the last
 * major for Svelte 4 (it needs Vite 5).
 */
function svelte4Dependencies() {
  return {
    ...floorDependencies(),
    "@sveltejs/vite-plugin-svelte": "3.1.2",
    svelte: lowest(peers.svelte, 4),
  }
}

/**
 * What the app installs from the registry. SvelteKit 2: the ranges the workspace develops
 * against. SvelteKit 3: what its peer dependencies ask for (Vite 8, vite-plugin-svelte 7,
 * TypeScript 6) and adapter-node 6, its first major for SvelteKit 3.
 */
const registryDependencies =
  kit === "floor"
    ? floorDependencies()
    : kit === "2"
      ? {
          "@sveltejs/adapter-node": workspaceKit["@sveltejs/adapter-node"],
          "@sveltejs/kit": workspaceKit["@sveltejs/kit"],
          "@sveltejs/vite-plugin-svelte": workspaceKit["@sveltejs/vite-plugin-svelte"],
          svelte: workspaceKit.svelte,
          "svelte-check": workspaceKit["svelte-check"],
          typescript: workspaceKit.typescript,
          vite: workspaceKit.vite,
        }
      : {
          "@sveltejs/adapter-node": "^6.0.0",
          "@sveltejs/kit": "^3.0.0",
          "@sveltejs/vite-plugin-svelte": "^7.0.0",
          svelte: "^5.57.1",
          "svelte-check": "^4.3.0",
          typescript: "^6.0.0",
          vite: "^8.0.12",
        }

const USER = { username: "alice", password: "wonderland", name: "Alice Liddell" }
/** The app lives under `paths.base`, which Latch's hook, form actions and components honour. */
const BASE = "/app"
/** Remote functions came in SvelteKit 2.27: the floor (2.13) has none. */
const REMOTE = kit !== "floor"

/**
 * The app's files. SvelteKit 3 reads its configuration from vite.config (svelte.config.js is
 * gone), and adapter-node 6 takes the public origin from `paths.origin` at build time (its
 * `ORIGIN` variable is gone).
 */
function appFiles(tarballs, origin, dependencies = registryDependencies) {
  const files = {
    "package.json": JSON.stringify(
      {
        name: "latch-install-check",
        private: true,
        type: "module",
        scripts: { build: "vite build", check: "svelte-kit sync && svelte-check" },
        dependencies: {
          "@latch/core": `file:${tarballs["@latch/core"]}`,
          "@latch/sveltekit": `file:${tarballs["@latch/sveltekit"]}`,
        },
        devDependencies: dependencies,
      },
      null,
      2,
    ),
    // `svelte-kit sync` writes the base tsconfig: SvelteKit 3 into node_modules/$app.
    "tsconfig.json": JSON.stringify(
      major === "2"
        ? {
            extends: "./.svelte-kit/tsconfig.json",
            compilerOptions: { strict: true, skipLibCheck: true, moduleResolution: "bundler" },
          }
        : {
            extends: "$app/tsconfig",
            include: ["src", "*"],
            exclude: ["src/service-worker"],
            compilerOptions: { strict: true },
          },
      null,
      2,
    ),
    "src/app.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    %sveltekit.head%
  </head>
  <body>
    <div style="display: contents">%sveltekit.body%</div>
  </body>
</html>
`,
    "src/app.d.ts": `// App.Locals.auth() comes from @latch/sveltekit.
import "@latch/sveltekit"

export {}
`,
    "src/auth.ts": `import { SvelteKitAuth } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"

const users = [
  { id: "1", username: ${JSON.stringify(USER.username)}, password: ${JSON.stringify(USER.password)}, name: ${JSON.stringify(USER.name)} },
]

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async ({ username, password }) => {
        const user = users.find((u) => u.username === username && u.password === password)
        return user ? { id: user.id, name: user.name, email: \`\${user.username}@example.com\` } : null
      },
    }),
  ],
})
`,
    "src/hooks.server.ts": `import { sequence } from "@sveltejs/kit/hooks"
import { handle as auth } from "./auth"

// Latch's hook is typed on this SvelteKit, not \`any\`: a number is no hook.
// @ts-expect-error svelte-check fails if this line is not an error
export const notAHook: typeof auth = 42

// It composes with other hooks.
export const handle = sequence(auth, async ({ event, resolve }) => {
  event.setHeaders({ "x-sequenced": "true" })
  return resolve(event)
})
`,
    "src/routes/+page.svelte": `<h1>Home</h1>
<a href="${BASE}/protected">Protected</a>
`,
    // The live session: seeded by loadSession, rendered on the server for each visitor.
    "src/routes/+layout.server.ts": `import { loadSession } from "@latch/sveltekit"

export const load = loadSession
`,
    "src/routes/+layout.svelte": `<script lang="ts">
  import { useSession } from "@latch/sveltekit/session"

  let { children } = $props()
  const session = useSession()
</script>

<p id="header">{session.status}:{session.data?.user?.name ?? ""}</p>
{@render children()}
`,
    "src/routes/signin/+page.server.ts": `import { CredentialsSignin } from "@latch/sveltekit"
import { fail, type Actions, type ServerLoad } from "@sveltejs/kit"
import { signIn } from "../../auth"

export const load: ServerLoad = ({ url }) => ({
  callbackUrl: url.searchParams.get("callbackUrl") ?? "${BASE}/",
})

export const actions: Actions = {
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) return fail(400, { code: error.code })
      throw error
    }
  },
}
`,
    "src/routes/signin/+page.svelte": `<script lang="ts">
  import { SignIn } from "@latch/sveltekit/components"

  let { data, form } = $props()
</script>

<h1>Sign in</h1>
{#if form?.code}
  <p id="error">Wrong username or password ({form.code})</p>
{/if}
<SignIn provider="credentials" options={{ redirectTo: data.callbackUrl }}>
  {#snippet credentials()}
    <input name="username" autocomplete="username" />
    <input name="password" type="password" autocomplete="current-password" />
  {/snippet}
</SignIn>
`,
    "src/routes/signout/+page.server.ts": `import { signOut } from "../../auth"

export const actions = { default: signOut }
`,
    "src/routes/protected/+page.server.ts": `import { redirect, type ServerLoad } from "@sveltejs/kit"

export const load: ServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) {
    redirect(303, \`${BASE}/signin?callbackUrl=\${encodeURIComponent(url.pathname)}\`)
  }
  return { name: session.user.name ?? "" }
}
`,
    "src/routes/protected/+page.svelte": `<script lang="ts">
  import { SignOut } from "@latch/sveltekit/components"

  let { data } = $props()
</script>

<p id="user">Signed in as {data.name}</p>
<SignOut />
`,
  }
  if (REMOTE) {
    // Remote functions (experimental in SvelteKit, from 2.27): sign-in as a remote form.
    files["src/lib/account.remote.ts"] = `import { signInForm } from "@latch/sveltekit/remote"
import { signIn } from "../auth"

export const signInRemote = signInForm(signIn)
`
    files["src/routes/remote/+page.svelte"] = `<script lang="ts">
  import { signInRemote } from "../../lib/account.remote"
</script>

{#if signInRemote.result}
  <p id="error">Wrong username or password ({signInRemote.result.code})</p>
{/if}
<form {...signInRemote}>
  <input {...signInRemote.fields.providerId.as("hidden", "credentials")} />
  <input {...signInRemote.fields.redirectTo.as("hidden", "${BASE}/protected")} />
  <input {...signInRemote.fields.username.as("text")} />
  <input {...signInRemote.fields.password.as("password")} />
  <button>Sign in</button>
</form>
`
  }
  const experimental = REMOTE ? ", experimental: { remoteFunctions: true }" : ""
  if (major === "2") {
    files["svelte.config.js"] = `import adapter from "@sveltejs/adapter-node"

export default { kit: { adapter: adapter(), paths: { base: "${BASE}" }${experimental} } }
`
    files["vite.config.ts"] = `import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({ plugins: [sveltekit()] })
`
  } else {
    // SvelteKit 3 hands an app the variables it declares (Latch also reads the process's own).
    files["src/env.ts"] = `import { defineEnvVars } from "@sveltejs/kit/env"

export const variables = defineEnvVars({
  // Optional here (the build runs without it); Latch says so when it is missing at run time.
  AUTH_SECRET: { schema: (value) => value, description: "The secret Latch derives its keys from" },
})
`
    files["vite.config.ts"] = `import adapter from "@sveltejs/adapter-node"
import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [
    sveltekit({ adapter: adapter(), paths: { base: "${BASE}", origin: "${origin}" }${experimental} }),
  ],
})
`
  }
  return files
}

/**
 * The app written for Svelte 4, with what Latch offers there: the server side and the client
 * helpers. No runes, so `data` and `form` props, slots, and the session from the layout's data
 * (`@latch/sveltekit/session` is written with runes); no Latch components, so forms of its own
 * posting to the same actions, with the same fields and markup, so that the same flows check
 * them. (The components use SvelteKit's `use:enhance`, whose module, from SvelteKit 2.12 on,
 * fails server rendering under Svelte 4 in a production build.) A page calls the client helpers,
 * which the build must bundle; they import nothing of Svelte.
 */
function svelte4Files(tarballs, origin) {
  return {
    ...appFiles(tarballs, origin, svelte4Dependencies()),
    "src/routes/+layout.svelte": `<script lang="ts">
  export let data
</script>

<p id="header">{data.session ? "authenticated" : "unauthenticated"}:{data.session?.user?.name ?? ""}</p>
<slot />
`,
    "src/routes/signin/+page.svelte": `<script lang="ts">
  export let data
  export let form
</script>

<h1>Sign in</h1>
{#if form?.code}
  <p id="error">Wrong username or password ({form.code})</p>
{/if}
<form method="POST" action="${BASE}/signin">
  <input type="hidden" name="providerId" value="credentials" />
  <input type="hidden" name="redirectTo" value={data.callbackUrl} />
  <input name="username" autocomplete="username" />
  <input name="password" type="password" autocomplete="current-password" />
  <button type="submit">Sign in</button>
</form>
`,
    "src/routes/protected/+page.svelte": `<script lang="ts">
  export let data
</script>

<p id="user">Signed in as {data.name}</p>
<form method="POST" action="${BASE}/signout"><button type="submit">Sign out</button></form>
`,
    "src/routes/client/+page.svelte": `<script lang="ts">
  import { getSession, signIn, signOut } from "@latch/sveltekit/client"

  let name = ""
  async function refresh() {
    name = (await getSession())?.user?.name ?? ""
  }
</script>

<button on:click={() => signIn("credentials", { username: "alice", redirectTo: "${BASE}/protected" })}>Sign in</button>
<button on:click={() => signOut({ redirectTo: "${BASE}/" })}>Sign out</button>
<button on:click={refresh}>{name || "Who am I?"}</button>
`,
  }
}

async function signInFlows(origin) {
  const sessionCookie = "authjs.session-token"
  /** Where a redirect goes, as a path on the app's origin. */
  const target = ({ location }) => {
    const url = new URL(location ?? "", origin)
    assert.equal(url.origin, origin, `a redirect to ${location} leaves the app`)
    return url.pathname + url.search
  }
  const wrong = { username: USER.username, password: "not-the-password" }
  const right = { username: USER.username, password: USER.password }

  // 1. The protected page sends a visitor without a session to the sign-in page.
  const user = browser(origin)
  let result = await user.request(`${BASE}/protected`)
  assert.equal(result.status, 303, "GET /protected without a session")
  assert.equal(target(result), `${BASE}/signin?callbackUrl=%2Fapp%2Fprotected`)

  // 2. The sign-in page renders <SignIn provider="credentials"> with the callback URL.
  const signInPage = target(result)
  result = await user.request(signInPage)
  assert.equal(result.status, 200, "GET /signin")
  const signInForm = formWith(await result.response.text(), "username", signInPage)
  assert.equal(signInForm.action, `${BASE}/signin`, "<SignIn> posts under paths.base")
  assert.deepEqual(signInForm.hidden, {
    providerId: "credentials",
    redirectTo: `${BASE}/protected`,
  })

  // 3. A wrong password is refused: the page again with the code, no session.
  result = await user.request(signInForm.action, {
    method: "POST",
    form: { ...signInForm.hidden, ...wrong },
  })
  assert.equal(result.status, 400, "POST /signin with a wrong password")
  assert.match(await result.response.text(), /Wrong username or password \(credentials\)/)
  assert.equal(user.jar.has(sessionCookie), false, "no session cookie after a wrong password")
  assert.equal((await user.request(`${BASE}/protected`)).status, 303, "still signed out")

  // 4. The right password: a 303 to the callback URL with the session cookie.
  result = await user.request(signInForm.action, {
    method: "POST",
    form: { ...signInForm.hidden, ...right },
  })
  assert.equal(result.status, 303, "POST /signin with the right password")
  assert.equal(target(result), `${BASE}/protected`)
  assert.ok(user.jar.has(sessionCookie), "the session cookie is set")

  // 5. Following the redirect, the protected page shows the user.
  result = await user.request(target(result))
  assert.equal(result.status, 200, "GET /protected signed in")
  const page = await result.response.text()
  assert.match(page, new RegExp(`<p id="user">Signed in as ${USER.name}</p>`))
  assert.match(page, new RegExp(`<p id="header">authenticated:${USER.name}</p>`), "useSession()")
  assert.equal(result.response.headers.get("x-sequenced"), "true", "the hook after Latch's ran")
  const session = await (await user.request(`${BASE}/auth/session`)).response.json()
  assert.equal(session?.user?.name, USER.name, "GET /auth/session under paths.base")

  // 6. <SignOut> (no redirectTo): the session ends, the user goes to the app's home page.
  const signOutForm = findForm(
    page,
    `${BASE}/protected`,
    (attributes) => /action="[^"]*signout"/.test(attributes),
    "posting to signout",
  )
  assert.equal(signOutForm.action, `${BASE}/signout`, "<SignOut> posts under paths.base")
  result = await user.request(signOutForm.action, { method: "POST", form: signOutForm.hidden })
  assert.equal(result.status, 303, "POST /signout")
  assert.equal(target(result), `${BASE}/`)
  assert.equal(user.jar.has(sessionCookie), false, "the session cookie is cleared")
  assert.equal((await user.request(`${BASE}/protected`)).status, 303, "signed out")
  result = await user.request(`${BASE}/`)
  assert.match(await result.response.text(), /<p id="header">unauthenticated:<\/p>/)

  // 7. The built-in page: GET /auth/signin, its CSRF token, POST /auth/callback/credentials.
  const other = browser(origin)
  const builtInPage = `${BASE}/auth/signin?callbackUrl=%2Fapp%2Fprotected`
  result = await other.request(builtInPage)
  assert.equal(result.status, 200, "GET /auth/signin")
  const builtIn = formWith(await result.response.text(), "password", builtInPage)
  assert.equal(builtIn.action, `${BASE}/auth/callback/credentials`)
  assert.ok(builtIn.hidden.csrfToken, "the built-in form carries a CSRF token")
  const { csrfToken } = await (await other.request(`${BASE}/auth/csrf`)).response.json()
  assert.equal(csrfToken, builtIn.hidden.csrfToken, "GET /auth/csrf answers the same token")
  result = await other.request(builtIn.action, {
    method: "POST",
    form: { ...builtIn.hidden, ...wrong },
  })
  assert.equal(result.status, 302, "POST /auth/callback/credentials with a wrong password")
  assert.match(target(result), /^\/app\/auth\/signin\?.*error=CredentialsSignin/)
  assert.equal(other.jar.has(sessionCookie), false)
  result = await other.request(builtIn.action, {
    method: "POST",
    form: { ...builtIn.hidden, ...right },
  })
  assert.equal(result.status, 302, "POST /auth/callback/credentials")
  assert.equal(target(result), `${BASE}/protected`)
  result = await other.request(`${BASE}/protected`)
  assert.equal(result.status, 200)
  assert.match(await result.response.text(), new RegExp(`Signed in as ${USER.name}`))

  if (REMOTE) await remoteFormFlows(origin, target, { wrong, right, sessionCookie })
}

/** 8. Sign-in as a remote form, posted without JavaScript (to the page, `?/remote=…`). */
async function remoteFormFlows(origin, target, { wrong, right, sessionCookie }) {
  const user = browser(origin)
  const pagePath = `${BASE}/remote`
  let result = await user.request(pagePath)
  assert.equal(result.status, 200, "GET /remote")
  const html = await result.response.text()
  const form = formWith(html, "username", pagePath)
  assert.match(form.action, /remote=/, "a remote form posts to the page")
  // The fields as the page names them: `username`, or `username/<form id>` (SvelteKit 3).
  const named = (fields) =>
    Object.fromEntries(
      Object.entries(fields).map(([key, value]) => [
        new RegExp(`name="(${key}(?:/[^"]*)?)"`).exec(html)[1],
        value,
      ]),
    )
  result = await user.request(form.action, {
    method: "POST",
    form: { ...form.hidden, ...named(wrong) },
  })
  assert.equal(result.status, 200, "a remote form refused")
  assert.match(await result.response.text(), /Wrong username or password \(credentials\)/)
  assert.equal(user.jar.has(sessionCookie), false)
  result = await user.request(form.action, {
    method: "POST",
    form: { ...form.hidden, ...named(right) },
  })
  assert.equal(result.status, 303, "a remote form signs in")
  assert.equal(target(result), `${BASE}/protected`)
  assert.ok(user.jar.has(sessionCookie), "the remote form set the session cookie")
  result = await user.request(`${BASE}/protected`)
  assert.match(await result.response.text(), new RegExp(`Signed in as ${USER.name}`))
}

async function main() {
  const node = values.node ? await nodeBinary(values.node) : process.execPath
  const nodeVersion = (await exec(node, ["--version"])).trim()
  const work = tempDir(`latch-install-kit${kit}-`, { keep: values.keep })
  const started = Date.now()

  step(`packing @latch/core and @latch/sveltekit into ${work}`)
  const tarballs = await packPackages(["@latch/core", "@latch/sveltekit"], work)

  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const app = join(work, "app")
  for (const [file, content] of Object.entries(appFiles(tarballs, origin))) {
    mkdirSync(dirname(join(app, file)), { recursive: true })
    writeFileSync(join(app, file), content)
  }
  const which =
    kit === "floor" ? "SvelteKit 2 app at the floor of the peer ranges" : `SvelteKit ${kit} app`
  step(`installing a ${which} in ${app} with npm (Node.js ${nodeVersion})`)
  await npmInstall(app, node)
  const version = (name) =>
    JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")).version
  const installed = version("@sveltejs/kit")
  assert.equal(installed.split(".")[0], major, `@sveltejs/kit ${installed} installed`)
  if (kit === "floor") {
    for (const name of ["@sveltejs/kit", "svelte"]) {
      assert.equal(version(name), registryDependencies[name], `${name} at the floor of its range`)
    }
  }

  step("`npx @latch/core secret` for the app's AUTH_SECRET")
  const secretLine = (
    await exec("npm", ["exec", "--offline", "--", "latch", "secret"], {
      cwd: app,
      env: nodeEnv(node),
    })
  ).trim()
  const secret = /^AUTH_SECRET=([A-Za-z0-9_-]{44})$/.exec(secretLine.split("\n").at(-1))?.[1]
  assert.ok(secret, `latch secret printed ${secretLine}`)

  await checkApp({ app, node, origin, port, secret })
  let seconds = Math.round((Date.now() - started) / 1000)
  console.log(
    `✓ a SvelteKit ${installed} app (Svelte ${version("svelte")}) on Node.js ${nodeVersion} installs the packed packages and signs in (${seconds} s)`,
  )
  if (kit !== "floor") return

  // The same app on Svelte 4, in the same directory: npm swaps Svelte and vite-plugin-svelte.
  const svelte4Started = Date.now()
  for (const dir of [".svelte-kit", "build"]) {
    rmSync(join(app, dir), { recursive: true, force: true })
  }
  for (const [file, content] of Object.entries(svelte4Files(tarballs, origin))) {
    mkdirSync(dirname(join(app, file)), { recursive: true })
    writeFileSync(join(app, file), content)
  }
  step(`installing Svelte ${svelte4Dependencies().svelte} in the same app with npm`)
  await npmInstall(app, node)
  for (const [name, wanted] of Object.entries(svelte4Dependencies())) {
    if (name !== "typescript") assert.equal(version(name), wanted, `${name} for the Svelte 4 app`)
  }
  await checkApp({ app, node, origin, port, secret }, async () => {
    await signInFlows(origin)
    const page = await fetch(`${origin}${BASE}/client`)
    assert.equal(page.status, 200, "GET /client, a page calling the client helpers")
  })
  seconds = Math.round((Date.now() - svelte4Started) / 1000)
  console.log(
    `✓ the same app on Svelte ${version("svelte")} (SvelteKit ${version("@sveltejs/kit")}) signs in: the server side and the client helpers (${seconds} s)`,
  )
}

/** svelte-check, `vite build`, the built app started on `origin`, and the sign-in flows. */
async function checkApp({ app, node, origin, port, secret }, flows = () => signInFlows(origin)) {
  const env = nodeEnv(node)
  const bin = (name) => join(app, "node_modules/.bin", name)
  const installed = JSON.parse(
    readFileSync(join(app, "node_modules/@sveltejs/kit/package.json"), "utf8"),
  ).version
  step(`svelte-check and vite build (SvelteKit ${installed})`)
  await exec(bin("svelte-kit"), ["sync"], { cwd: app, env })
  const checked = await exec(bin("svelte-check"), ["--fail-on-warnings"], { cwd: app, env })
  assert.match(checked, /0 errors and 0 warnings/)
  await exec(bin("vite"), ["build"], { cwd: app, env })

  step(`starting the built app on ${origin} and signing in`)
  const server = start(node, ["build/index.js"], {
    cwd: app,
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      ORIGIN: origin,
      AUTH_SECRET: secret,
      NODE_ENV: "production",
    },
  })
  try {
    const deadline = Date.now() + 20_000
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the app exited:\n${server.output}`)
      try {
        if ((await fetch(`${origin}${BASE}/auth/providers`)).ok) break
      } catch {}
      if (Date.now() > deadline) throw new Error(`the app did not start:\n${server.output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await flows()
  } catch (error) {
    if (server.output) console.error(`the app's output:\n${server.output}`)
    throw error
  } finally {
    await stop(server)
  }
}

await main()
