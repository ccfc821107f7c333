import { describe, expect, it, vi } from "vitest"

import { setEnvDefaults, type Env } from "../../src/config/env.js"
import { resolveConfig } from "../../src/config/resolve.js"
import Credentials from "../../src/providers/credentials.js"
import type { Provider } from "../../src/providers/index.js"
import { authActions, createActionURL, isAuthAction } from "../../src/request/action-url.js"
import type { AuthAction, AuthConfig } from "../../src/types.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"

function bare(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { providers: [], ...overrides }
}

describe("setEnvDefaults", () => {
  it.each<[string, string | string[]]>([
    [SECRET, SECRET],
    [`new-${SECRET},old-${SECRET}`, [`new-${SECRET}`, `old-${SECRET}`]],
    [` new , old `, ["new", "old"]],
  ])("sets secret from AUTH_SECRET=%j to %j", (value, expected) => {
    const config = bare()
    setEnvDefaults({ AUTH_SECRET: value }, config)
    expect(config.secret).toEqual(expected)
  })

  it("reads AUTH_SECRET_1, _2 and _3 as Auth.js does: each before the ones read so far", () => {
    const config = bare()
    setEnvDefaults(
      { AUTH_SECRET: "base", AUTH_SECRET_1: "one", AUTH_SECRET_3: "three" } as Env,
      config,
    )
    expect(config.secret).toEqual(["three", "one", "base"])
    const alone = bare()
    setEnvDefaults({ AUTH_SECRET_1: "one" } as Env, alone)
    expect(alone.secret).toBe("one")
  })

  it.each([undefined, "", " , "])("leaves secret unset when AUTH_SECRET is %j", (value) => {
    const config = bare()
    setEnvDefaults({ AUTH_SECRET: value }, config)
    expect(config.secret).toBeUndefined()
  })

  it("keeps a secret the configuration already has", () => {
    const config = bare({ secret: "mine" })
    setEnvDefaults({ AUTH_SECRET: "env" }, config)
    expect(config.secret).toBe("mine")
  })

  it.each<[Env, boolean]>([
    [{ AUTH_TRUST_HOST: "false" }, false],
    [{ AUTH_TRUST_HOST: "false", AUTH_URL: "https://app.example.com" }, false],
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_URL: "https://app.example.com", NODE_ENV: "production" }, true],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "development" }, true],
  ])("sets trustHost from %j to %s", (env, expected) => {
    const config = bare()
    setEnvDefaults(env, config)
    expect(config.trustHost).toBe(expected)
  })

  it("keeps a trustHost the configuration already has", () => {
    const config = bare({ trustHost: false })
    setEnvDefaults({ AUTH_TRUST_HOST: "true" }, config)
    expect(config.trustHost).toBe(false)
  })

  it.each<[string | undefined, string | undefined]>([
    ["https://app.example.com/api/auth", "/api/auth"],
    ["https://app.example.com/", undefined],
    ["https://app.example.com", undefined],
    ["not a url", undefined],
    [undefined, undefined],
  ])("sets basePath from AUTH_URL=%j to %j", (url, expected) => {
    const config = bare()
    setEnvDefaults({ AUTH_URL: url }, config)
    expect(config.basePath).toBe(expected)
  })

  it("keeps a basePath the configuration already has", () => {
    const config = bare({ basePath: "/mine" })
    setEnvDefaults({ AUTH_URL: "https://app.example.com/api/auth" }, config)
    expect(config.basePath).toBe("/mine")
  })

  it("sets redirectProxyUrl from AUTH_REDIRECT_PROXY_URL, unless already set", () => {
    const config = bare()
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }, config)
    expect(config.redirectProxyUrl).toBe("https://proxy.example/auth")
    const mine = bare({ redirectProxyUrl: "https://mine.example" })
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }, mine)
    expect(mine.redirectProxyUrl).toBe("https://mine.example")
  })

  it("gives an OAuth provider its client id and secret from AUTH_<ID>_ID and _SECRET", () => {
    const config = bare({ providers: [{ id: "github", name: "GitHub", type: "oauth" }] })
    setEnvDefaults({ AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" }, config)
    expect(config.providers[0]).toMatchObject({
      id: "github",
      name: "GitHub",
      type: "oauth",
      clientId: "gh-id",
      clientSecret: "gh-secret",
    })
  })

  it("gives an OIDC provider with dashes in its id its client and issuer", () => {
    const config = bare({
      providers: [{ id: "microsoft-entra-id", name: "Microsoft Entra ID", type: "oidc" }],
    })
    setEnvDefaults(
      {
        AUTH_MICROSOFT_ENTRA_ID_ID: "ms-id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "ms-secret",
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.microsoftonline.com/tenant/v2.0",
      },
      config,
    )
    expect(config.providers[0]).toMatchObject({
      clientId: "ms-id",
      clientSecret: "ms-secret",
      issuer: "https://login.microsoftonline.com/tenant/v2.0",
    })
  })

  it("keeps a provider's own client id, secret and issuer", () => {
    const config = bare({
      providers: [
        {
          id: "okta",
          name: "Okta",
          type: "oidc",
          clientId: "mine",
          clientSecret: "mine-too",
          issuer: "https://mine.example",
        },
      ],
    })
    setEnvDefaults(
      { AUTH_OKTA_ID: "env", AUTH_OKTA_SECRET: "env", AUTH_OKTA_ISSUER: "https://env.example" },
      config,
    )
    expect(config.providers[0]).toMatchObject({
      clientId: "mine",
      clientSecret: "mine-too",
      issuer: "https://mine.example",
    })
  })

  it("does not read another provider's variables", () => {
    const config = bare({ providers: [{ id: "github", name: "GitHub", type: "oauth" }] })
    setEnvDefaults({ AUTH_GITLAB_ID: "gl-id", AUTH_GITLAB_SECRET: "gl-secret" }, config)
    const provider = config.providers[0] as Record<string, unknown>
    expect(provider.clientId).toBeUndefined()
    expect(provider.clientSecret).toBeUndefined()
  })

  it("calls provider factories and fills what they return", () => {
    const factory = vi.fn(() => ({ id: "gitlab", name: "GitLab", type: "oauth" as const }))
    const config = bare({ providers: [factory] })
    setEnvDefaults({ AUTH_GITLAB_ID: "gl-id" }, config)
    expect(factory).toHaveBeenCalledTimes(1)
    expect(config.providers[0]).toMatchObject({ id: "gitlab", clientId: "gl-id" })
  })

  it("leaves credentials providers as they are", () => {
    const credentials = Credentials({ authorize: () => null })
    const config = bare({ providers: [credentials] })
    setEnvDefaults({ AUTH_CREDENTIALS_ID: "x", AUTH_CREDENTIALS_SECRET: "y" }, config)
    expect(config.providers[0]).toBe(credentials)
    expect("clientId" in (config.providers[0] as object)).toBe(false)
  })

  it("does not change the provider objects it was given", () => {
    const github = { id: "github", name: "GitHub", type: "oauth" as const }
    setEnvDefaults({ AUTH_GITHUB_ID: "gh-id" }, bare({ providers: [github] }))
    expect(github).toEqual({ id: "github", name: "GitHub", type: "oauth" })
  })

  it("produces a configuration that resolves without errors", () => {
    const warnings: string[] = []
    const config = bare({
      providers: [Credentials({ authorize: () => null }) as Provider],
      logger: { warn: (code) => warnings.push(code) },
    })
    const env = {
      AUTH_SECRET: SECRET,
      AUTH_URL: "https://app.example.com/api/auth",
      NODE_ENV: "production",
    }
    setEnvDefaults(env, config)
    const resolved = resolveConfig(config, env)
    expect(resolved.error).toBeUndefined()
    // AUTH_URL pins the origin: no warning that links follow the request's Host.
    expect(warnings).toEqual([])
    expect(resolved.basePath).toBe("/api/auth")
    expect(resolved.trustHost).toBe(true)
  })
})

describe("setEnvDefaults and AUTH_URL", () => {
  it("makes the configuration read AUTH_URL from the given env instead of process.env", () => {
    const config: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET: "x".repeat(40), AUTH_URL: "https://app.example/auth" }, config)
    expect(resolveConfig(config).authURL?.origin).toBe("https://app.example")
  })

  it("leaves configurations it never saw on process.env", () => {
    vi.stubEnv("AUTH_URL", "https://from-process.example")
    try {
      expect(resolveConfig({ providers: [], secret: "x".repeat(40) }).authURL?.origin).toBe(
        "https://from-process.example",
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe("isAuthAction", () => {
  it.each([
    "callback",
    "csrf",
    "error",
    "providers",
    "session",
    "signin",
    "signout",
    "verify-request",
    "webauthn-options",
    "passkey-signup",
  ])("knows %s", (action) => {
    expect(isAuthAction(action)).toBe(true)
    expect(authActions).toContain(action)
  })

  it.each([
    "",
    "signIn",
    "SIGNIN",
    "sign-in",
    "login",
    "logout",
    "__proto__",
    "constructor",
    "toString",
    "signin/",
  ])("does not know %j", (action) => {
    expect(isAuthAction(action)).toBe(false)
  })

  it("lists exactly the actions Latch answers", () => {
    expect([...authActions].sort()).toEqual([
      "account",
      "callback",
      "change-password",
      "csrf",
      "error",
      "new-password",
      "passkey",
      "passkey-signup",
      "providers",
      "reauthenticate",
      "reset-password",
      "session",
      "signin",
      "signout",
      "signup",
      "two-factor",
      "unlink",
      "verify-email",
      "verify-request",
      "webauthn-options",
    ])
  })
})

describe("createActionURL", () => {
  const headers = (init: Record<string, string>) => new Headers(init)

  it.each<{ label: string; env: Env; basePath?: string; expected: string }>([
    {
      label: "AUTH_URL's origin and path",
      env: { AUTH_URL: "https://app.example.com/api/auth" },
      expected: "https://app.example.com/api/auth/signin",
    },
    {
      label: "AUTH_URL's path without its trailing slash",
      env: { AUTH_URL: "https://app.example.com/api/auth/" },
      expected: "https://app.example.com/api/auth/signin",
    },
    {
      label: "/auth under an AUTH_URL without a path",
      env: { AUTH_URL: "https://app.example.com" },
      expected: "https://app.example.com/auth/signin",
    },
    {
      label: "the configuration's basePath under AUTH_URL's origin",
      env: { AUTH_URL: "https://app.example.com/api/auth" },
      basePath: "/custom/",
      expected: "https://app.example.com/custom/signin",
    },
  ])("builds from $label, ignoring the request's headers", ({ env, basePath, expected }) => {
    const url = createActionURL(
      "signin",
      "http:",
      headers({
        host: "evil.example",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "http",
      }),
      env,
      basePath === undefined ? {} : { basePath },
    )
    expect(url.href).toBe(expected)
  })

  it.each<{
    label: string
    init: Record<string, string>
    protocol: string
    basePath?: string
    expected: string
  }>([
    {
      label: "Host and the protocol",
      init: { host: "localhost:3000" },
      protocol: "http:",
      expected: "http://localhost:3000/auth/session",
    },
    {
      label: "a protocol without its colon",
      init: { host: "localhost:3000" },
      protocol: "https",
      expected: "https://localhost:3000/auth/session",
    },
    {
      label: "Host, never X-Forwarded-Host or Forwarded",
      init: {
        host: "app.example.com",
        "x-forwarded-host": "evil.example",
        forwarded: "host=evil.example;proto=https",
      },
      protocol: "https:",
      expected: "https://app.example.com/auth/session",
    },
    {
      label: "the protocol, never X-Forwarded-Proto",
      init: { host: "app.example.com", "x-forwarded-proto": "https" },
      protocol: "http:",
      expected: "http://app.example.com/auth/session",
    },
    {
      label: "a normalised basePath",
      init: { host: "app.example.com" },
      protocol: "https:",
      basePath: "api/auth/",
      expected: "https://app.example.com/api/auth/session",
    },
    {
      label: "an empty basePath",
      init: { host: "app.example.com" },
      protocol: "https:",
      basePath: "",
      expected: "https://app.example.com/session",
    },
  ])(
    "builds from $label without AUTH_URL, with trustHost",
    ({ init, protocol, basePath, expected }) => {
      const url = createActionURL(
        "session",
        protocol,
        headers(init),
        {},
        basePath === undefined ? { trustHost: true } : { basePath, trustHost: true },
      )
      expect(url.href).toBe(expected)
    },
  )

  it.each([
    ["no Host header", {}],
    ["a Host header with a path", { host: "app.example.com/evil" }],
    ["a Host header with userinfo", { host: "user@app.example.com" }],
  ])("refuses to build from %s", (_case, init: Record<string, string>) => {
    expect(() =>
      createActionURL("signin", "https:", headers(init), {}, { trustHost: true }),
    ).toThrow(TypeError)
  })

  // The attacker's request: a Host header of their choosing, to a caller that did not opt in.
  it.each([
    ["no opt-in", {}, {}],
    ["trustHost: false", {}, { trustHost: false }],
    ["AUTH_TRUST_HOST=false", { AUTH_TRUST_HOST: "false" }, {}],
    ["only NODE_ENV=development", { NODE_ENV: "development" }, {}],
  ])("never builds from a forged Host without the opt-in (%s)", (_case, env: Env, config) => {
    const forged = headers({ host: "evil.example", "x-forwarded-host": "evil.example" })
    expect(() => createActionURL("signin", "https:", forged, env, config)).toThrow(
      expect.objectContaining({ type: "UntrustedHost" }),
    )
  })

  it("builds from Host with AUTH_TRUST_HOST=true, never from X-Forwarded-Host", () => {
    const url = createActionURL(
      "signin",
      "https:",
      headers({ host: "app.example.com", "x-forwarded-host": "evil.example" }),
      { AUTH_TRUST_HOST: "true" },
      {},
    )
    expect(url.href).toBe("https://app.example.com/auth/signin")
  })

  it("refuses a protocol that is not http(s)", () => {
    expect(() =>
      createActionURL(
        "signin",
        "javascript:",
        headers({ host: "app.example.com" }),
        {},
        {
          trustHost: true,
        },
      ),
    ).toThrow(TypeError)
  })

  it("falls back to the headers when AUTH_URL is not a URL", () => {
    const url = createActionURL(
      "csrf",
      "https:",
      headers({ host: "app.example.com" }),
      { AUTH_URL: "app.example.com" },
      { trustHost: true },
    )
    expect(url.href).toBe("https://app.example.com/auth/csrf")
  })

  it.each(authActions)("builds a URL for the %s action", (action: AuthAction) => {
    const url = createActionURL(
      action,
      "https:",
      headers({ host: "a.example" }),
      {},
      {
        trustHost: true,
      },
    )
    expect(url.pathname).toBe(`/auth/${action}`)
  })
})
