/**
 * The client helpers take the options and authorization parameters that apps written for
 * Auth.js pass, and answer in Auth.js's shape. Their `fetch` calls are answered in-process by a
 * `handle` with a credentials provider and a plain OAuth 2.0 provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { signIn, signOut, type SignInAuthorizationParams } from "../src/lib/client.js"
import { SvelteKitAuth } from "../src/lib/index.js"
import { signIn as signInWithPasskey } from "../src/lib/webauthn.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN } from "./helpers/event.js"

const window = { location: { href: `${ORIGIN}/page`, reload() {} } }
const acme = {
  id: "acme",
  name: "Acme",
  type: "oauth" as const,
  clientId: "acme-client",
  clientSecret: "acme-secret",
  authorization: "https://idp.example/authorize",
  token: "https://idp.example/token",
  userinfo: "https://idp.example/userinfo",
}
let browser: Browser

/** `fetch` as a page sees it, answered by `browser`'s handle. */
async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), window.location.href)
  const method = (init.method ?? "GET").toUpperCase()
  const headers = new Headers(init.headers)
  if (method === "POST") headers.set("origin", ORIGIN)
  const { response } = await browser.fetch(`${url.pathname}${url.search}`, {
    ...init,
    method,
    headers,
  })
  return response
}

beforeAll(() => {
  vi.stubGlobal("window", window)
  vi.stubGlobal("location", window.location)
  vi.stubGlobal("fetch", browserFetch)
})
afterAll(() => vi.unstubAllGlobals())
beforeEach(() => {
  window.location.href = `${ORIGIN}/page`
  const config = testConfig()
  browser = new Browser(SvelteKitAuth({ ...config, providers: [...config.providers, acme] }).handle)
})

describe("signIn's authorizationParams", () => {
  const forms: [string, SignInAuthorizationParams][] = [
    ["a record", { prompt: "login", login_hint: "a@b.c" }],
    ["a query string", "prompt=login&login_hint=a%40b.c"],
    [
      "an array of pairs",
      [
        ["prompt", "login"],
        ["login_hint", "a@b.c"],
      ],
    ],
    ["a URLSearchParams", new URLSearchParams({ prompt: "login", login_hint: "a@b.c" })],
  ]

  it.each(forms)("reach the authorization request as %s", async (_, params) => {
    for (const start of [signIn, signInWithPasskey]) {
      const result = await start("acme", { redirect: false }, params)
      expect(result).toMatchObject({ ok: true, error: undefined })
      const authorization = new URL(result.url!)
      expect(authorization.origin + authorization.pathname).toBe(acme.authorization)
      expect(authorization.searchParams.get("prompt")).toBe("login")
      expect(authorization.searchParams.get("login_hint")).toBe("a@b.c")
    }
  })
})

describe("signIn's answer and options", () => {
  it("answers in Auth.js's shape: error and code undefined unless there is one", async () => {
    const refused = await signIn("credentials", {
      username: "alice",
      password: "nope",
      redirect: false,
    })
    expect(refused).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
    expect(refused.url).toBeNull()
    const done = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      redirect: false,
    })
    expect(done).toEqual({
      ok: true,
      status: 200,
      error: undefined,
      code: undefined,
      url: `${ORIGIN}/page`,
    })
  })

  it("takes the deprecated callbackUrl as redirectTo", async () => {
    const result = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      callbackUrl: "/dashboard",
      redirect: false,
    })
    expect(result.url).toBe(`${ORIGIN}/dashboard`)
    const preferred = await signIn("credentials", {
      username: "alice",
      password: "wonderland",
      callbackUrl: "/old",
      redirectTo: "/new",
      redirect: false,
    })
    expect(preferred.url).toBe(`${ORIGIN}/new`)
    await signIn("credentials", { username: "alice", password: "wonderland", callbackUrl: "/d" })
    expect(window.location.href).toBe(`${ORIGIN}/d`)
  })

  it("signOut takes the deprecated callbackUrl too", async () => {
    expect(await signOut({ callbackUrl: "/bye", redirect: false })).toEqual({
      url: `${ORIGIN}/bye`,
    })
    await signOut({ callbackUrl: "/gone" })
    expect(window.location.href).toBe(`${ORIGIN}/gone`)
  })
})
