/**
 * Production unless told otherwise: a runtime without `NODE_ENV` (a Worker, Bun, Deno) gets the
 * rules of production, and the platforms that route by the deployer's own host names are
 * detected, for `trustHost` and the `origin-from-request` warning.
 */
import { afterEach, describe, expect, it } from "vitest"
import { vi } from "vitest"

import type { Env } from "../../src/config/env.js"
import { setEnvDefaults } from "../../src/config/env.js"
import { isProduction, platformPinsOrigin } from "../../src/config/platform.js"
import { resolveConfig } from "../../src/config/resolve.js"
import { Auth } from "../../src/index.js"
import type { WarningCode } from "../../src/lib/logger.js"
import { ORIGIN, SECRET, testConfig } from "../helpers/request.js"

afterEach(() => {
  vi.unstubAllGlobals()
})

function warningsOf(env: Env, trustHost?: boolean): WarningCode[] {
  const warnings: WarningCode[] = []
  const config = testConfig({
    trustHost,
    logger: { warn: (code) => void warnings.push(code), error: () => {}, debug: () => {} },
  })
  resolveConfig(config, env)
  return warnings
}

describe("isProduction", () => {
  it.each<[Env, boolean]>([
    [{}, true],
    [{ NODE_ENV: "production" }, true],
    [{ NODE_ENV: "staging" }, true],
    [{ NODE_ENV: "" }, true],
    [{ NODE_ENV: "development" }, false],
    [{ NODE_ENV: "test" }, false],
    [{ NODE_ENV: "DEVELOPMENT" }, false],
  ])("%j → %s", (env, expected) => {
    expect(isProduction(env)).toBe(expected)
  })
})

describe("a core-only Worker (no NODE_ENV)", () => {
  it("refuses a 5-character secret, as any production does", async () => {
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" })
    const errors: Error[] = []
    const config = testConfig({
      secret: undefined,
      trustHost: undefined,
      logger: { warn: () => {}, error: (error) => void errors.push(error), debug: () => {} },
    })
    // A Worker's bindings, as its fetch handler passes them.
    setEnvDefaults({ AUTH_SECRET: "abcde" }, config)
    const response = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    expect(response.status).toBe(500)
    expect(errors.map((error) => (error as { type?: string }).type)).toEqual(["MissingSecret"])
  })

  it("accepts a 5-character secret with a warning when NODE_ENV=development is set", async () => {
    const config = testConfig({ secret: undefined })
    setEnvDefaults({ AUTH_SECRET: "abcde", NODE_ENV: "development" }, config)
    expect((await Auth(new Request(`${ORIGIN}/auth/csrf`), config)).status).toBe(200)
  })

  it("trusts the host Cloudflare routed the request by, and does not warn about it", () => {
    expect(resolveConfig(testConfig({ trustHost: undefined }), {}).trustHost).toBe(false)
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" })
    expect(platformPinsOrigin({})).toBe(true)
    expect(resolveConfig(testConfig({ trustHost: undefined }), {}).trustHost).toBe(true)
    expect(warningsOf({}, true)).not.toContain("origin-from-request")
  })
})

describe("the origin-from-request warning where NODE_ENV is unset", () => {
  it("is printed on a plain server (Node, Bun, Deno) that trusts the Host header", () => {
    vi.stubGlobal("navigator", { userAgent: "Node.js/20" })
    expect(warningsOf({}, true)).toContain("origin-from-request")
    expect(warningsOf({ NODE_ENV: "development" }, true)).not.toContain("origin-from-request")
  })

  it.each<[string, Env, () => void]>([
    ["Netlify's global", {}, () => vi.stubGlobal("Netlify", { env: {} })],
    ["NETLIFY", { NETLIFY: "true" }, () => {}],
    ["Deno Deploy", { DENO_DEPLOYMENT_ID: "abc123" }, () => {}],
    ["Vercel", { VERCEL: "1" }, () => {}],
    ["Cloudflare Pages", { CF_PAGES: "1" }, () => {}],
    ["AUTH_URL", { AUTH_URL: "https://app.example" }, () => {}],
  ])("is not printed on %s", (_, env, stub) => {
    stub()
    expect(warningsOf(env, true)).not.toContain("origin-from-request")
  })

  it("is printed on Vercel's edge runtime outside Vercel (EdgeRuntime alone pins nothing)", () => {
    vi.stubGlobal("EdgeRuntime", "edge-runtime")
    expect(platformPinsOrigin({})).toBe(false)
    expect(warningsOf({}, true)).toContain("origin-from-request")
  })
})

describe("untrusted hosts where NODE_ENV is unset", () => {
  it("refuses a request whose Host is not trusted, without AUTH_URL or trustHost", async () => {
    const config = testConfig({ trustHost: undefined })
    setEnvDefaults({ AUTH_SECRET: SECRET }, config)
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(response.status).toBe(500)
    expect(((await response.json()) as { message: string }).message).toMatch(/[Hh]ost/)
  })
})
