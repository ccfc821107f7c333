/**
 * The real SvelteKit app of test/app (adapter-node), built and served on 127.0.0.1 for tests
 * that talk to it over HTTP, and a raw HTTP client that sends a path exactly as written.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { rm } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../../../../scripts/ports.mjs"

const APP = fileURLToPath(new URL("../app", import.meta.url))
const VITE = fileURLToPath(new URL("../../node_modules/.bin/vite", import.meta.url))

export { freePort }

/** Runs a command to completion; rejects with its output on failure. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("error", reject)
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")}: ${code}\n${output}`)),
    )
  })
}

/** The app, running. */
export interface RunningApp {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** What the server printed so far. */
  log(): string
  stop(): Promise<void>
}

/**
 * Builds test/app and starts it with `env` added to the environment. Each call builds its own
 * copy, under `name` and this process's id, removed by `stop()`: the origin is part of a
 * SvelteKit 3 build, and test files (or two runs of the suite) may build side by side.
 */
export async function startApp(name: string, env: NodeJS.ProcessEnv = {}): Promise<RunningApp> {
  // The origin is known before the build: SvelteKit 3's adapter-node takes it at build time.
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const build = `${name}-${process.pid}`
  const outputs = [
    join(APP, "build", build),
    join(APP, ".svelte-kit", build),
    join(APP, "node_modules", ".vite", build),
  ]
  const clean = () => Promise.all(outputs.map((dir) => rm(dir, { recursive: true, force: true })))
  try {
    await run(VITE, ["build"], APP, { ...process.env, ORIGIN: origin, LATCH_TEST_APP_NAME: build })
  } catch (error) {
    await clean()
    throw error
  }
  let log = ""
  const server: ChildProcess = spawn(process.execPath, [`build/${build}/index.js`], {
    cwd: APP,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      ORIGIN: origin,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  server.stdout!.on("data", (chunk) => (log += chunk))
  server.stderr!.on("data", (chunk) => (log += chunk))
  const app: RunningApp = {
    origin,
    log: () => log,
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve))
        server.kill()
        await exited
      }
      await clean()
    },
  }
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      await app.stop()
      throw new Error(`the app exited:\n${log}`)
    }
    try {
      if ((await fetch(`${origin}/auth/providers`)).ok) return app
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await app.stop()
  throw new Error(`the app did not start:\n${log}`)
}

/** What a raw request got back. */
export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** The `location` header, if any. */
  location: string | undefined
  body: string
}

/**
 * Sends one request with `path` on the request line exactly as given: `fetch` would normalize
 * `/x/../admin` or resolve `//admin` as another host before sending. Follows no redirects.
 */
export function rawRequest(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { hostname, port, path, method: init.method ?? "GET", headers: init.headers },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => {
          const location = response.headers.location
          resolve({ status: response.statusCode ?? 0, headers: response.headers, location, body })
        })
        response.on("error", reject)
      },
    )
    request.on("error", reject)
    request.end(init.body)
  })
}

/** The `name=value` pairs of Set-Cookie lines, as a Cookie header. */
const cookieHeader = (lines: string[]) => lines.map((line) => line.split(";")[0]).join("; ")

/**
 * Signs in through the built-in page's form (`POST /auth/callback/credentials` with the CSRF
 * token); returns the Cookie header to send from then on, and where the sign-in redirected.
 */
export async function signInWithCredentials(
  origin: string,
  username: string,
  password: string,
  callbackUrl = "/",
): Promise<{ cookie: string; location: URL }> {
  const csrf = await rawRequest(origin, "/auth/csrf")
  const cookies = (csrf.headers["set-cookie"] ?? []) as string[]
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const response = await rawRequest(origin, "/auth/callback/credentials", {
    method: "POST",
    headers: {
      origin,
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieHeader(cookies),
    },
    body: new URLSearchParams({ csrfToken, username, password, callbackUrl }).toString(),
  })
  const location = new URL(response.location ?? "/", origin)
  if (response.status !== 302 || location.searchParams.has("error")) {
    throw new Error(`sign-in as ${username} failed: ${response.status} ${location}`)
  }
  const set = (response.headers["set-cookie"] ?? []) as string[]
  return { cookie: cookieHeader([...cookies, ...set]), location }
}
