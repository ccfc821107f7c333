import { describe, expect, it, vi } from "vitest"

import { resolveConfig } from "../../src/config/resolve.js"
import type { Env } from "../../src/config/env.js"
import {
  AuthError,
  InvalidProvider,
  MissingAdapter,
  MissingAuthorize,
  MissingSecret,
} from "../../src/errors.js"
import type { Adapter } from "../../src/adapters.js"
import type { WarningCode } from "../../src/lib/logger.js"
import { skipCSRFCheck } from "../../src/markers.js"
import Credentials from "../../src/providers/credentials.js"
import type { Provider } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const DEV: Env = { NODE_ENV: "development" }
const PROD: Env = { NODE_ENV: "production" }

function credentials(id = "credentials"): Provider {
  return Credentials({ id, credentials: {}, authorize: () => null })
}

/** A logger that records what it is asked to print. */
function recorder() {
  const warn = vi.fn<(code: WarningCode) => void>()
  const error = vi.fn<(error: Error) => void>()
  const debug = vi.fn<(message: string, metadata?: unknown) => void>()
  return { warn, error, debug }
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    providers: [credentials()],
    logger: recorder(),
    ...overrides,
  }
}

function deepFreeze<T>(value: T): T {
  if (value && (typeof value === "object" || typeof value === "function")) {
    if (Object.isFrozen(value)) return value
    Object.freeze(value)
    for (const key of Reflect.ownKeys(value as object)) {
      deepFreeze((value as Record<PropertyKey, unknown>)[key])
    }
  }
  return value
}

describe("resolveConfig: caching", () => {
  it("returns the same result for the same object", () => {
    const input = config()
    const first = resolveConfig(input, DEV)
    expect(resolveConfig(input, DEV)).toBe(first)
    expect(resolveConfig(input, { ...DEV, AUTH_URL: "https://other.example/x" })).toBe(first)
    expect(first.source).toBe(input)
  })

  it("resolves two objects independently, even with the same content", () => {
    const a = config()
    const b = config()
    const resolvedA = resolveConfig(a, DEV)
    const resolvedB = resolveConfig(b, DEV)
    expect(resolvedA).not.toBe(resolvedB)
    expect(resolvedA.source).toBe(a)
    expect(resolvedB.source).toBe(b)
  })

  it("does not let one configuration's error or options reach another", () => {
    const broken = resolveConfig(config({ secret: undefined, basePath: "/one" }), DEV)
    const fine = resolveConfig(config({ basePath: "/two" }), DEV)
    expect(broken.error).toBeInstanceOf(MissingSecret)
    expect(fine.error).toBeUndefined()
    expect(broken.basePath).toBe("/one")
    expect(fine.basePath).toBe("/two")
  })

  it("does not let providers of one configuration appear in another", () => {
    const one = resolveConfig(config({ providers: [credentials("one")] }), DEV)
    const two = resolveConfig(config({ providers: [credentials("two")] }), DEV)
    expect([...one.providers.keys()]).toEqual(["one"])
    expect([...two.providers.keys()]).toEqual(["two"])
  })

  it("caches derived values: the cookies of one variant are built once", () => {
    const resolved = resolveConfig(config(), DEV)
    expect(resolved.cookies(true)).toBe(resolved.cookies(true))
    expect(resolved.cookies(false)).toBe(resolved.cookies(false))
    expect(resolved.cookies(true)).not.toBe(resolved.cookies(false))
  })
})

describe("resolveConfig: defaults", () => {
  it("fills every default", () => {
    const resolved = resolveConfig(config(), DEV)
    expect(resolved.error).toBeUndefined()
    expect(resolved.basePath).toBe("/auth")
    expect(resolved.session.strategy).toBe("jwt")
    expect(resolved.session.maxAge).toBe(2_592_000)
    expect(resolved.session.updateAge).toBe(86_400)
    expect(resolved.jwt.maxAge).toBe(2_592_000)
    expect(resolved.builtInJWT).toBe(true)
    expect(resolved.defaultJWTCallback).toBe(true)
    expect(resolved.skipCSRFCheck).toBe(false)
    expect(resolved.secrets).toEqual([SECRET])
    expect(resolved.useSecureCookies).toBeUndefined()
    expect(resolved.experimental.enableWebAuthn).toBe(false)
    expect(resolved.pages).toEqual({})
    expect(resolved.events).toEqual({})
  })

  it("generates distinct session tokens by default", () => {
    const { session } = resolveConfig(config(), DEV)
    const a = session.generateSessionToken()
    expect(a).toMatch(/^[0-9a-f-]{36}$/)
    expect(session.generateSessionToken()).not.toBe(a)
  })

  it("takes the session's maxAge for the JWT when only the session's is given", () => {
    const resolved = resolveConfig(config({ session: { maxAge: 3600 } }), DEV)
    expect(resolved.session.maxAge).toBe(3600)
    expect(resolved.jwt.maxAge).toBe(3600)
    expect(resolved.session.updateAge).toBe(86_400)
  })

  it("keeps the given session and jwt options", () => {
    const resolved = resolveConfig(
      config({ session: { maxAge: 3600, updateAge: 60 }, jwt: { maxAge: 120 } }),
      DEV,
    )
    expect(resolved.session.updateAge).toBe(60)
    expect(resolved.jwt.maxAge).toBe(120)
  })

  it("merges the given callbacks over the defaults", () => {
    const jwt = vi.fn()
    const resolved = resolveConfig(config({ callbacks: { jwt } }), DEV)
    expect(resolved.callbacks.jwt).toBe(jwt)
    expect(resolved.defaultJWTCallback).toBe(false)
    expect(typeof resolved.callbacks.redirect).toBe("function")
    expect(typeof resolved.callbacks.session).toBe("function")
    expect(typeof resolved.callbacks.signIn).toBe("function")
  })

  it("names a provider without a name after its id", () => {
    const provider = { id: "pw", type: "credentials", credentials: {}, authorize: () => null }
    const resolved = resolveConfig(config({ providers: [provider as unknown as Provider] }), DEV)
    expect(resolved.providers.get("pw")?.name).toBe("pw")
    expect("name" in provider).toBe(false)
  })

  it("calls provider factories", () => {
    const factory = vi.fn(() => Credentials({ id: "made", authorize: () => null }))
    const resolved = resolveConfig(config({ providers: [factory] }), DEV)
    expect(factory).toHaveBeenCalledTimes(1)
    expect(resolved.providers.get("made")?.type).toBe("credentials")
  })

  it("recognises skipCSRFCheck only through the marker", () => {
    expect(resolveConfig(config({ skipCSRFCheck }), DEV).skipCSRFCheck).toBe(true)
    expect(
      resolveConfig(config({ skipCSRFCheck: true as unknown as typeof skipCSRFCheck }), DEV)
        .skipCSRFCheck,
    ).toBe(false)
  })
})

describe("resolveConfig: basePath", () => {
  it.each([
    ["/auth", "/auth"],
    ["auth", "/auth"],
    ["/auth/", "/auth"],
    ["auth/", "/auth"],
    ["//api//auth//", "/api//auth"],
    ["/api/auth", "/api/auth"],
    ["/", ""],
    ["", ""],
    ["///", ""],
  ])("normalises %j to %j", (basePath, expected) => {
    expect(resolveConfig(config({ basePath }), DEV).basePath).toBe(expected)
  })

  it.each([
    ["https://app.example.com/api/auth", "/api/auth"],
    ["https://app.example.com/api/auth/", "/api/auth"],
    ["https://app.example.com/", "/auth"],
    ["https://app.example.com", "/auth"],
    ["not a url", "/auth"],
    ["ftp://app.example.com/files", "/auth"],
  ])("takes AUTH_URL=%j as basePath %j when none is given", (url, expected) => {
    const resolved = resolveConfig(config(), { ...DEV, AUTH_URL: url })
    expect(resolved.basePath).toBe(expected)
  })

  it("prefers the configuration's basePath over AUTH_URL's path, with a warning", () => {
    const logger = recorder()
    const resolved = resolveConfig(config({ basePath: "/custom", logger }), {
      ...DEV,
      AUTH_URL: "https://app.example.com/api/auth",
    })
    expect(resolved.basePath).toBe("/custom")
    expect(logger.warn).toHaveBeenCalledWith("env-url-basepath-mismatch")
  })

  it("does not warn when AUTH_URL's path and basePath agree", () => {
    const logger = recorder()
    resolveConfig(config({ basePath: "api/auth/", logger }), {
      ...DEV,
      AUTH_URL: "https://app.example.com/api/auth/",
    })
    expect(logger.warn).not.toHaveBeenCalled()
  })
})

describe("resolveConfig: environment", () => {
  it.each([
    ["one", ["one"]],
    ["new,old", ["new", "old"]],
    [" new , old ,oldest ", ["new", "old", "oldest"]],
    ["new,,old,", ["new", "old"]],
  ])("reads AUTH_SECRET=%j as the secrets %j, newest first", (value, expected) => {
    const resolved = resolveConfig(config({ secret: undefined }), { ...DEV, AUTH_SECRET: value })
    expect(resolved.secrets).toEqual(expected)
  })

  it("prefers the configuration's secret over AUTH_SECRET", () => {
    const resolved = resolveConfig(config(), { ...DEV, AUTH_SECRET: "from-env" })
    expect(resolved.secrets).toEqual([SECRET])
  })

  it("keeps a configuration's secret list in order", () => {
    const resolved = resolveConfig(config({ secret: ["new-" + SECRET, "old-" + SECRET] }), DEV)
    expect(resolved.secrets).toEqual(["new-" + SECRET, "old-" + SECRET])
  })

  it("falls back to AUTH_SECRET when the configured secret is empty", () => {
    const resolved = resolveConfig(config({ secret: "" }), { ...DEV, AUTH_SECRET: SECRET })
    expect(resolved.secrets).toEqual([SECRET])
    expect(resolved.error).toBeUndefined()
  })

  it.each<[Env, boolean]>([
    [{ AUTH_TRUST_HOST: "false" }, false],
    [{ AUTH_TRUST_HOST: "0" }, false],
    [{ AUTH_TRUST_HOST: "FALSE" }, false],
    [{ AUTH_TRUST_HOST: "false", AUTH_URL: "https://app.example.com" }, false],
    [{ AUTH_TRUST_HOST: "false", NODE_ENV: "development" }, false],
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "1", NODE_ENV: "production" }, true],
    [{ AUTH_URL: "https://app.example.com", NODE_ENV: "production" }, true],
    [{ VERCEL: "1", NODE_ENV: "production" }, true],
    [{ CF_PAGES: "1", NODE_ENV: "production" }, true],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "development" }, true],
    [{ NODE_ENV: "test" }, true],
    // Production unless told otherwise: no NODE_ENV (a Worker, Bun, Deno) is production.
    [{}, false],
    [{ NODE_ENV: "staging" }, false],
    [{ NETLIFY: "true" }, true],
    [{ DENO_DEPLOYMENT_ID: "abc123" }, true],
  ])("reads trustHost from %j as %s", (env, expected) => {
    expect(resolveConfig(config(), env).trustHost).toBe(expected)
  })

  it.each([true, false])("prefers the configuration's trustHost: %s", (trustHost) => {
    const env = { AUTH_TRUST_HOST: String(!trustHost) }
    expect(resolveConfig(config({ trustHost }), env).trustHost).toBe(trustHost)
  })

  it("reads AUTH_URL as the site's URL", () => {
    const resolved = resolveConfig(config(), { ...DEV, AUTH_URL: "https://app.example.com/x" })
    expect(resolved.authURL?.origin).toBe("https://app.example.com")
  })

  it("reads AUTH_REDIRECT_PROXY_URL unless the configuration sets one", () => {
    const env = { ...DEV, AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }
    expect(resolveConfig(config(), env).redirectProxyUrl).toBe("https://proxy.example/auth")
    expect(
      resolveConfig(config({ redirectProxyUrl: "https://mine.example" }), env).redirectProxyUrl,
    ).toBe("https://mine.example")
  })
})

describe("resolveConfig: configuration errors", () => {
  it("stores a MissingSecret naming AUTH_SECRET when there is no secret", () => {
    const logger = recorder()
    const resolved = resolveConfig(config({ secret: undefined, logger }), DEV)
    expect(resolved.error).toBeInstanceOf(MissingSecret)
    expect(resolved.error?.message).toContain("AUTH_SECRET")
    expect(logger.error).toHaveBeenCalledWith(resolved.error)
  })

  it.each([
    { label: "a short secret", secret: "short" },
    { label: "a 31-character secret", secret: "x".repeat(31) },
    { label: "a short first secret of a list", secret: ["short", SECRET] },
  ])("refuses $label in production with MissingSecret", ({ secret }) => {
    const resolved = resolveConfig(config({ secret }), PROD)
    expect(resolved.error).toBeInstanceOf(MissingSecret)
    expect(resolved.error?.message).toMatch(/32/)
  })

  it("keeps a short older secret of a list in production, to decrypt, with a warning", () => {
    // The secret of an app that moved from Auth.js, kept behind a new one: nobody is signed out.
    const logger = recorder()
    const kept = resolveConfig(config({ secret: [SECRET, "short"], logger }), PROD)
    expect(kept.error).toBeUndefined()
    expect(kept.secrets).toEqual([SECRET, "short"])
    expect(logger.warn).toHaveBeenCalledWith("weak-secret")
  })

  it("refuses a short AUTH_SECRET in production", () => {
    const resolved = resolveConfig(config({ secret: undefined }), { ...PROD, AUTH_SECRET: "short" })
    expect(resolved.error).toBeInstanceOf(MissingSecret)
  })

  it("accepts a 32-character secret in production without a warning", () => {
    const logger = recorder()
    const resolved = resolveConfig(config({ secret: "x".repeat(32), logger }), PROD)
    expect(resolved.error).toBeUndefined()
    expect(logger.warn).not.toHaveBeenCalled()
  })

  it.each([DEV, { NODE_ENV: "test" }, { NODE_ENV: " Development " }])(
    "only warns about a short secret outside production (%j)",
    (env) => {
      const logger = recorder()
      const resolved = resolveConfig(config({ secret: "short", logger }), env)
      expect(resolved.error).toBeUndefined()
      expect(logger.warn).toHaveBeenCalledWith("weak-secret")
      expect(logger.warn).toHaveBeenCalledTimes(1)
    },
  )

  it.each<{ label: string; providers: unknown; error: typeof AuthError; names?: string }>([
    {
      label: "duplicate provider ids",
      providers: [credentials("same"), credentials("same")],
      error: InvalidProvider,
      names: "same",
    },
    {
      label: "a credentials provider without authorize",
      providers: [{ id: "pw", name: "Password", type: "credentials", credentials: {} }],
      error: MissingAuthorize,
      names: "pw",
    },
    {
      label: "an unsupported provider type",
      providers: [{ id: "carrier-pigeon", name: "Pigeon", type: "pigeon" }],
      error: InvalidProvider,
      names: "pigeon",
    },
    {
      label: "a provider without an id",
      providers: [{ name: "Nameless", type: "credentials", authorize: () => null }],
      error: InvalidProvider,
    },
    {
      label: "a provider id with a slash",
      providers: [{ id: "a/b", name: "AB", type: "credentials", authorize: () => null }],
      error: InvalidProvider,
    },
    { label: "a provider that is not an object", providers: [42], error: InvalidProvider },
    { label: "providers that are not an array", providers: "credentials", error: InvalidProvider },
  ])("stores $error.name for $label", ({ providers, error, names }) => {
    const logger = recorder()
    const resolved = resolveConfig(config({ providers: providers as Provider[], logger }), DEV)
    expect(resolved.error).toBeInstanceOf(error)
    expect(resolved.error?.type).toBe(error.type)
    if (names) expect(resolved.error?.message).toContain(names)
    expect(logger.error).toHaveBeenCalledTimes(1)
  })

  it("stores MissingAdapter for database sessions without an adapter", () => {
    const resolved = resolveConfig(config({ session: { strategy: "database" } }), DEV)
    expect(resolved.error).toBeInstanceOf(MissingAdapter)
    expect(resolved.error?.message).toContain("adapter")
  })

  it("chooses database sessions by default when an adapter is given", () => {
    const resolved = resolveConfig(config({ adapter: {} as Adapter }), DEV)
    expect(resolved.session.strategy).toBe("database")
    expect(resolved.error).not.toBeInstanceOf(MissingAdapter)
  })

  it("logs a configuration error once, however often the configuration is resolved", () => {
    const logger = recorder()
    const input = config({ secret: undefined, logger })
    resolveConfig(input, DEV)
    resolveConfig(input, DEV)
    resolveConfig(input, DEV)
    expect(logger.error).toHaveBeenCalledTimes(1)
  })

  it("does not throw configuration errors: they are kept for the requests", () => {
    expect(() =>
      resolveConfig(config({ secret: undefined, providers: [42 as never] }), DEV),
    ).not.toThrow()
  })
})

describe("resolveConfig: warnings", () => {
  it.each<{ label: string; overrides: Partial<AuthConfig>; code: WarningCode }>([
    { label: "debug", overrides: { debug: true }, code: "debug-enabled" },
    { label: "skipCSRFCheck", overrides: { skipCSRFCheck }, code: "csrf-disabled" },
  ])("warns $code once per configuration for $label", ({ overrides, code }) => {
    const logger = recorder()
    const input = config({ ...overrides, logger })
    resolveConfig(input, DEV)
    resolveConfig(input, DEV)
    expect(logger.warn.mock.calls).toEqual([[code]])
    const other = recorder()
    resolveConfig(config({ ...overrides, logger: other }), DEV)
    expect(other.warn.mock.calls).toEqual([[code]])
  })

  it("prints no warning for a plain configuration", () => {
    const logger = recorder()
    resolveConfig(config({ logger }), DEV)
    expect(logger.warn).not.toHaveBeenCalled()
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("keeps debug messages silent unless debug is on", () => {
    const quiet = recorder()
    resolveConfig(config({ logger: quiet }), DEV).logger.debug("hello")
    expect(quiet.debug).not.toHaveBeenCalled()
    const loud = recorder()
    resolveConfig(config({ logger: loud, debug: true }), DEV).logger.debug("hello")
    expect(loud.debug).toHaveBeenCalledWith("hello")
  })

  it("survives a logger that throws", () => {
    const input = config({
      debug: true,
      logger: {
        warn: () => {
          throw new Error("broken logger")
        },
      },
    })
    expect(() => resolveConfig(input, DEV)).not.toThrow()
  })
})

describe("resolveConfig: the user's object", () => {
  it("is never mutated, even when defaults are filled from the environment", () => {
    const input = deepFreeze(
      config({
        secret: undefined,
        providers: [
          { id: "pw", type: "credentials", credentials: {}, authorize: () => null } as never,
          Credentials({ id: "other", authorize: () => null }),
        ],
        session: { maxAge: 60 },
        cookies: { sessionToken: { options: { domain: "example.com" } } },
        callbacks: { jwt: ({ token }) => token },
        pages: { signIn: "/login" },
        logger: { warn: () => {}, error: () => {}, debug: () => {} },
      }),
    )
    const before = {
      keys: Object.keys(input).sort(),
      providers: input.providers,
      provider: { ...(input.providers[0] as object) },
      session: { ...input.session },
      cookies: JSON.stringify(input.cookies),
    }
    const resolved = resolveConfig(input, {
      ...DEV,
      AUTH_SECRET: SECRET,
      AUTH_URL: "https://app.example.com/api/auth",
      AUTH_REDIRECT_PROXY_URL: "https://proxy.example",
    })
    expect(resolved.error).toBeUndefined()
    resolved.cookies(true)
    resolved.cookies(false)
    expect(Object.keys(input).sort()).toEqual(before.keys)
    expect(input.secret).toBeUndefined()
    expect(input.basePath).toBeUndefined()
    expect(input.trustHost).toBeUndefined()
    expect(input.providers).toBe(before.providers)
    expect(input.providers[0]).toEqual(before.provider)
    expect(input.session).toEqual(before.session)
    expect(JSON.stringify(input.cookies)).toBe(before.cookies)
  })

  it("does not hand out the user's nested objects to be changed", () => {
    const input = config({ session: { maxAge: 60 } })
    const resolved = resolveConfig(input, DEV)
    resolved.session.maxAge = 1
    resolved.callbacks.jwt = () => null
    expect(input.session?.maxAge).toBe(60)
    expect(input.callbacks).toBeUndefined()
  })
})
