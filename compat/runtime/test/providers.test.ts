/**
 * The provider catalogue against Auth.js's, as published: every provider module of
 * `@auth/core/providers/*` exists in `@latch/core` and `@latch/sveltekit` with the same id, name
 * and type; the same `AUTH_<ID>_*` variables fill the same options; and for every provider the
 * catalogue signs in with, the `providerAccountId` Latch stored is the one Auth.js's own
 * `profile()` gives for the same profile and tokens — so an account linked under Auth.js
 * matches after the move.
 */
import { existsSync, readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

import { setEnvDefaults as authjsSetEnvDefaults } from "@auth/core"
import { setEnvDefaults } from "@latch/core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import {
  startOAuthServer,
  type OAuthServer,
} from "../../../packages/core/test/helpers/oauth-server.js"
import { allCases } from "../../../packages/core/test/providers/catalogue/index.js"
import {
  type CatalogueCase,
  envPrefix,
  prepare,
  signIn,
  stopAll,
} from "../../../packages/core/test/providers/catalogue/run.js"

const require = createRequire(import.meta.url)
const authjsProviders = join(dirname(require.resolve("@auth/core/providers/github")), ".")
const repo = new URL("../../../", import.meta.url)
const latchCore = new URL("packages/core/src/providers/", repo)
const latchKit = new URL("packages/sveltekit/src/lib/providers/", repo)

/** Modules of `@auth/core/providers` that are types or the index, not providers. */
const NOT_PROVIDERS = new Set(["index", "provider-types", "oauth", "oauth-types"])

const authjsIds = readdirSync(authjsProviders)
  .filter((file) => file.endsWith(".js"))
  .map((file) => file.slice(0, -3))
  .filter((id) => !NOT_PROVIDERS.has(id))
  .sort()

type Factory = (options?: Record<string, unknown>) => Record<string, any>

async function authjs(id: string): Promise<Factory> {
  const url = pathToFileURL(join(authjsProviders, `${id}.js`)).href
  return ((await import(url)) as { default: Factory }).default
}

/**
 * Latch's factory for `id`. The two deprecated ones (azure-ad, email) warn on their first call,
 * as Auth.js's do: that warning is asserted here (the process's first call is in this file) and
 * kept out of the output, where it would say nothing about this comparison.
 */
async function latch(id: string): Promise<Factory> {
  const factory = ((await import(`@latch/core/providers/${id}`)) as { default: Factory }).default
  if (!DEPRECATED.has(id)) return factory
  return (options) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      return factory(options)
    } finally {
      for (const [message] of warn.mock.calls) {
        expect(String(message)).toMatch(
          new RegExp(`^\\[latch\\]\\[warn\\] ${id}-provider-deprecated: `),
        )
      }
      warn.mockRestore()
    }
  }
}
const DEPRECATED = new Set(["azure-ad", "email"])

/** What a factory gives with the options every kind needs, or undefined when it throws. */
function made(factory: Factory): Record<string, any> | undefined {
  try {
    return factory({ apiKey: "key", server: "smtp://127.0.0.1:2525", from: "a@example.com" })
  } catch {
    return undefined
  }
}

it("has every provider module Auth.js has, in @latch/core and @latch/sveltekit", () => {
  expect(authjsIds.length).toBeGreaterThan(90)
  const missingCore = authjsIds.filter((id) => !existsSync(new URL(`${id}.ts`, latchCore)))
  const missingKit = authjsIds.filter((id) => !existsSync(new URL(`${id}.ts`, latchKit)))
  expect({ missingCore, missingKit }).toEqual({ missingCore: [], missingKit: [] })
  const latchIds = readdirSync(latchCore).filter((f) => f.endsWith(".ts") && f !== "index.ts")
  expect(latchIds.length).toBeGreaterThanOrEqual(authjsIds.length)
})

/**
 * Where Latch differs on purpose, each a row of the migration guide's "what differs" table. The
 * difference is asserted: when it goes away, so must the row.
 */
const DIFFERENT_SHAPE: Record<string, { name?: string; type?: string }> = {
  // "Sign in with Nodemailer" names a library, not a way to sign in.
  nodemailer: { name: "Email" },
  // The multi-tenant audiences (the default, "common") run as OAuth 2.0 with Microsoft Graph:
  // their ID tokens name each user's own tenant, so no one issuer validates them.
  "microsoft-entra-id": { type: "oauth" },
  "azure-ad": { type: "oauth" },
}

/** Providers whose `AUTH_<ID>_KEY` Auth.js ignores (its factory sets `apiKey: ""`). */
const KEY_READ_BY_LATCH_ONLY = new Set(["loops"])

describe.each(authjsIds)("%s", (id) => {
  it("has Auth.js's id, name and type", async () => {
    const theirs = made(await authjs(id))
    const ours = made(await latch(id))
    expect(ours).toBeDefined()
    if (!theirs) return
    const expected = { id: theirs.id, name: theirs.name, type: theirs.type }
    const differs = DIFFERENT_SHAPE[id]
    if (differs) {
      expect({ ...expected, ...differs }).not.toEqual(expected)
      Object.assign(expected, differs)
    }
    expect({ id: ours!.id, name: ours!.name, type: ours!.type }).toEqual(expected)
  })

  it("reads the same AUTH_<ID>_* variables", async () => {
    const theirs = made(await authjs(id))
    if (!theirs || !["oauth", "oidc", "email"].includes(theirs.type)) return
    // The id of the provider object, which is what names its variables.
    const prefix = envPrefix(theirs.id)
    const env: Record<string, string> = {
      AUTH_SECRET: "a-secret-long-enough-for-both-0123456789",
      [`${prefix}_ID`]: "the-id",
      [`${prefix}_SECRET`]: "the-secret",
      [`${prefix}_ISSUER`]: "https://issuer.example.com/tenant",
      [`${prefix}_KEY`]: "the-key",
    }
    const read = (config: { providers: any[] }) => {
      const p = config.providers[0]
      return { clientId: p.clientId, clientSecret: p.clientSecret, apiKey: p.apiKey }
    }
    // Auth.js's email providers throw when called without a server or key: give them one.
    const provider = async (factory: Factory) =>
      theirs.type === "email" ? factory({ server: "smtp://127.0.0.1:2525" }) : factory
    const authjsConfig = { providers: [await provider(await authjs(id))] }
    authjsSetEnvDefaults(env, authjsConfig as never)
    const latchConfig = { providers: [await provider(await latch(id))] }
    setEnvDefaults(env, latchConfig as never)
    if (KEY_READ_BY_LATCH_ONLY.has(id)) {
      expect(read(authjsConfig).apiKey).toBe("")
      expect(read(latchConfig)).toEqual({ ...read(authjsConfig), apiKey: "the-key" })
    } else {
      expect(read(latchConfig)).toEqual(read(authjsConfig))
    }
  })
})

/**
 * The documented answer of a case's API at `url`: the API at the same host and path, else at the
 * same path (an instance's API, whatever its host), else under it (an API taking the token in
 * its path); Microsoft Graph's photo answers 404 (a user without one). Where Auth.js calls
 * another endpoint of the provider for the same user (an older API version), the case's profile
 * API stands for it: what is compared is the id Auth.js derives from that user.
 */
function documented(c: CatalogueCase, url: URL): Response {
  if (url.host === "graph.microsoft.com" && url.pathname.includes("/photos/")) {
    return new Response(null, { status: 404 })
  }
  const apis = (c.kind === "oauth" ? c.server.api : []).map((a) => ({ a, at: new URL(a.url) }))
  const api =
    apis.find(({ at }) => at.host === url.host && at.pathname === url.pathname) ??
    apis.find(({ at }) => at.pathname === url.pathname) ??
    apis.find(({ at }) => url.pathname.startsWith(`${at.pathname}/`)) ??
    apis[0]
  if (!api) return new Response(null, { status: 404 })
  const wrap = OTHER_ENDPOINTS[`${url.host}${url.pathname}`]
  return Response.json(wrap ? wrap(api.a.response) : api.a.response)
}

/** Endpoints only Auth.js calls, answering the same user in another envelope. */
const OTHER_ENDPOINTS: Record<string, (user: unknown) => unknown> = {
  // Todoist's Sync API v9 (`resource_types=["user"]`), replaced by its API v1's `GET /user`.
  "api.todoist.com/sync/v9/sync": (user) => ({ full_sync: true, sync_token: "x", user }),
}

describe("the same providerAccountId as Auth.js, for every provider the catalogue signs in with", () => {
  let server: OAuthServer
  beforeAll(async () => {
    server = await startOAuthServer()
    await Promise.all(allCases.map((c) => prepare(c, server)))
  })
  afterAll(async () => {
    await Promise.all([server?.stop(), stopAll()])
  })

  it.each(allCases.map((c) => [c.module ?? c.id, c] as const))("%s", async (id, c) => {
    const outcome = await signIn(c, server)
    expect(outcome.profile).toBeDefined()
    const { profile, tokens } = outcome.profile!
    const provider = (await authjs(id))({
      clientId: "id",
      clientSecret: "secret",
      issuer: "https://issuer.example.com",
    })
    // Auth.js's own profile step — its `userinfo.request`, or a GET of its userinfo URL, then its
    // `profile` — given the provider's documented answers (the case's), whatever headers or
    // query Auth.js sends: what is compared is the id Auth.js derives from the same user.
    vi.stubGlobal("fetch", async (input: string | URL) => documented(c, new URL(String(input))))
    try {
      const userinfoUrl = provider.userinfo?.url ?? provider.userinfo
      const fromUserinfo = provider.userinfo?.request
        ? await provider.userinfo.request({ tokens: structuredClone(tokens), provider })
        : c.kind === "oauth" && typeof userinfoUrl === "string"
          ? await (await documented(c, new URL(userinfoUrl))).json()
          : structuredClone(profile)
      if (id === "threads") {
        // Auth.js's Threads profile reads `data.id`, but Threads answers `GET /me` flat
        // ({ id, username, … }): under Auth.js the sign-in fails; Latch reads the documented answer.
        await expect(async () => provider.profile(fromUserinfo, tokens)).rejects.toThrow(TypeError)
        expect(outcome.accounts[0]?.providerAccountId).toBe(String(fromUserinfo.id))
        return
      }
      // Auth.js's default profile, for providers without one: `sub`, else `id`.
      const user = provider.profile
        ? await provider.profile(fromUserinfo, structuredClone(tokens))
        : { id: fromUserinfo.sub ?? fromUserinfo.id }
      expect(outcome.accounts[0]?.providerAccountId).toBe(String(user.id))
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
