/**
 * Runtimes that refuse what Node.js gives: Deno without `--allow-env` (every read of
 * `process.env` or `Deno.env` throws `NotCapable`), and runtimes without
 * `process.getBuiltinModule` (workerd without `nodejs_compat`, which has no `process` at all, runs
 * in the runtimes check: see below). `Auth()` must answer on
 * each — with its configuration error page and a log line where something is missing — and
 * never reject.
 */
import { afterEach, describe, expect, it, vi } from "vitest"

import { envRefusal, readableEnv, setEnvDefaults, type Env } from "../../src/config/env.js"
import { Auth } from "../../src/index.js"
import { createActionURL } from "../../src/request/action-url.js"
import { UntrustedHost } from "../../src/errors.js"
import { getToken } from "../../src/jwt.js"
import type { WarningCode } from "../../src/lib/logger.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser, ORIGIN, SECRET, testConfig } from "../helpers/request.js"

/** What Deno 2 throws on a read without `--allow-env` (its class is named `NotCapable`). */
class NotCapable extends Error {
  override name = "NotCapable"
}

/** An environment that refuses every read, as Deno's `process.env` does without permission. */
function denoEnv(): Env {
  const refuse = (name?: PropertyKey): never => {
    const what = typeof name === "string" ? ` to "${name}"` : ""
    throw new NotCapable(`Requires env access${what}, run again with the --allow-env flag`)
  }
  return new Proxy({} as Env, {
    get: (_, name) => refuse(name),
    has: (_, name) => refuse(name),
    ownKeys: () => refuse(),
    getOwnPropertyDescriptor: (_, name) => refuse(name),
  })
}

function recordingLogger() {
  const warnings: WarningCode[] = []
  const errors: Error[] = []
  return {
    warnings,
    errors,
    logger: {
      warn: (code: WarningCode) => void warnings.push(code),
      error: (error: Error) => void errors.push(error),
      debug: () => {},
    },
  }
}

const get = (path: string) => new Request(new URL(path, ORIGIN))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

describe("an environment whose reads are refused", () => {
  it("reads as unset, and keeps the runtime's message", () => {
    const env = readableEnv(denoEnv())
    expect(env.AUTH_SECRET).toBeUndefined()
    expect("AUTH_URL" in env).toBe(false)
    expect({ ...env }).toEqual({})
    expect(envRefusal(env)).toMatch(/--allow-env/)
    expect(envRefusal(readableEnv({ AUTH_SECRET: "x" }))).toBeUndefined()
  })

  it("honours a permission for some names only (--allow-env=AUTH_SECRET)", () => {
    const real: Env = { AUTH_SECRET: SECRET }
    const partial = new Proxy(real, {
      get(target, name) {
        if (name !== "AUTH_SECRET") throw new NotCapable(`Requires env access to "${String(name)}"`)
        return target[name]
      },
    })
    const env = readableEnv(partial)
    expect(env.AUTH_SECRET).toBe(SECRET)
    expect(env.AUTH_URL).toBeUndefined()
  })

  it("stays live: a variable set later is read", () => {
    const raw: Env = {}
    const env = readableEnv(raw)
    raw.AUTH_URL = "https://app.example"
    expect(env.AUTH_URL).toBe("https://app.example")
  })

  it("answers the configuration error page and logs why, instead of rejecting", async () => {
    const { logger, warnings, errors } = recordingLogger()
    const config: AuthConfig = { providers: testConfig().providers, logger }
    setEnvDefaults(denoEnv(), config)

    const api = await Auth(get("/auth/session"), config)
    expect(api.status).toBe(500)
    const body = (await api.json()) as { error: string; message: string }
    expect(body.error).toBe("Configuration")
    const page = await Auth(get("/auth/signin"), config)
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toMatch(/text\/html/)
    expect(await page.text()).not.toMatch(/NotCapable|at .*\.ts/)

    expect(warnings).toEqual(["env-unreadable"])
    expect(errors).toHaveLength(1)
    expect(errors[0]!.message).toMatch(/could not be read \(Requires env access/)
    expect(errors[0]!.message).toMatch(/--allow-env/)
  })

  it("works when the configuration carries what the environment would have", async () => {
    const { logger, warnings } = recordingLogger()
    const config = testConfig({ logger })
    setEnvDefaults(denoEnv(), config)
    const browser = new Browser(config)
    await browser.signIn()
    expect((await browser.session())?.user?.name).toBe("Alice")
    expect(warnings).toContain("env-unreadable")
  })

  it("given to createActionURL, reads as unset: UntrustedHost, or the opt-in of the config", () => {
    const headers = new Headers({ host: "app.example" })
    expect(() => createActionURL("signin", "https", headers, denoEnv(), {})).toThrow(UntrustedHost)
    const url = createActionURL("signin", "https", headers, denoEnv(), { trustHost: true })
    expect(url.href).toBe("https://app.example/auth/signin")
  })

  it("is production, so a short secret is refused", async () => {
    const config = testConfig({ secret: "abcde", trustHost: true })
    setEnvDefaults(denoEnv(), config)
    expect((await Auth(get("/auth/csrf"), config)).status).toBe(500)
  })

  it("as process.env itself (Deno's global process), for Auth and getToken", async () => {
    const saved = process.env
    // Deno's refusal for Latch's names and for a listing; Node.js's own reads (its HTTP client
    // loads lazily and reads a few variables) go through, or they would fail outside this test.
    const refused = denoEnv()
    const ours = (name: PropertyKey) =>
      typeof name === "string" && (name.startsWith("AUTH_") || name === "NODE_ENV")
    process.env = new Proxy(saved, {
      get: (target, name) => (ours(name) ? refused[name as string] : Reflect.get(target, name)),
      has: (target, name) => (ours(name) ? name in refused : Reflect.has(target, name)),
      ownKeys: () => Reflect.ownKeys(refused),
    })
    try {
      const { logger, warnings } = recordingLogger()
      const response = await Auth(get("/auth/session"), { providers: [], logger })
      expect(response.status).toBe(500)
      expect(warnings).toEqual(["env-unreadable"])
      const token = getToken({ req: get("/"), secret: undefined })
      await expect(token).rejects.toThrow(/no secret/)
    } finally {
      process.env = saved
    }
  })
})

// A runtime without `process` at all (workerd without nodejs_compat) is not simulated here:
// removing the global `process` from under the test runner breaks the runner itself (its worker
// messages use `process.nextTick` while a test awaits). The runtimes check runs the real thing:
// runtimes/src/flows/production.ts in workerd (a sign-in, a short secret and no secret refused).

describe("a runtime without process.getBuiltinModule", () => {
  it("signs in and reads the session on Web Crypto alone", async () => {
    const descriptor = Object.getOwnPropertyDescriptor(process, "getBuiltinModule")
    vi.resetModules()
    Object.defineProperty(process, "getBuiltinModule", { value: undefined, configurable: true })
    let fresh: typeof import("../../src/index.js")
    let nodeCrypto: unknown
    try {
      fresh = await import("../../src/index.js")
      nodeCrypto = (await import("../../src/lib/node-crypto.js")).nodeCrypto
    } finally {
      if (descriptor) Object.defineProperty(process, "getBuiltinModule", descriptor)
      vi.resetModules()
    }
    expect(nodeCrypto).toBeUndefined()
    const browser = new Browser(testConfig())
    browser.auth = fresh.Auth
    expect((await browser.signIn()).status).toBe(302)
    expect((await browser.session())?.user?.name).toBe("Alice")
  })
})

describe("a configuration that cannot be resolved", () => {
  it("is a configuration error, logged once, never a rejection", async () => {
    const { logger, errors } = recordingLogger()
    const config = testConfig({
      logger,
      providers: [
        () => {
          throw new TypeError("structuredClone is not defined")
        },
      ],
    })
    for (const path of ["/auth/session", "/auth/session"]) {
      const response = await Auth(get(path), config)
      expect(response.status).toBe(500)
      expect(((await response.json()) as { error: string }).error).toBe("Configuration")
    }
    const page = await Auth(get("/auth/signin"), config)
    expect(page.status).toBe(500)
    expect(await page.text()).not.toMatch(/structuredClone/)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.message).toMatch(/could not be resolved: structuredClone is not defined/)
  })
})
