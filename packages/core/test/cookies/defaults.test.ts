import { stringifySetCookie } from "cookie"
import { describe, expect, it } from "vitest"

import {
  CHECK_COOKIE_MAX_AGE,
  defaultCookies,
  resolveCookies,
  type ResolvedCookies,
} from "../../src/cookies/defaults.js"

type Member = keyof ResolvedCookies

const MEMBERS: Member[] = [
  "sessionToken",
  "callbackUrl",
  "csrfToken",
  "pkceCodeVerifier",
  "state",
  "nonce",
  "webauthnChallenge",
  "twoFactor",
  "proof",
  "signUp",
  "passkeySignUp",
]

const CHECK_MEMBERS: Member[] = [
  "pkceCodeVerifier",
  "state",
  "nonce",
  "webauthnChallenge",
  "twoFactor",
]

describe("defaultCookies", () => {
  it.each<[Member, string, string]>([
    ["sessionToken", "authjs.session-token", "__Secure-authjs.session-token"],
    ["callbackUrl", "authjs.callback-url", "__Secure-authjs.callback-url"],
    ["csrfToken", "authjs.csrf-token", "__Host-authjs.csrf-token"],
    ["pkceCodeVerifier", "authjs.pkce.code_verifier", "__Secure-authjs.pkce.code_verifier"],
    ["state", "authjs.state", "__Secure-authjs.state"],
    ["nonce", "authjs.nonce", "__Secure-authjs.nonce"],
    ["webauthnChallenge", "authjs.challenge", "__Secure-authjs.challenge"],
    ["twoFactor", "latch.two-factor", "__Secure-latch.two-factor"],
    ["proof", "latch.proof", "__Secure-latch.proof"],
    ["signUp", "latch.sign-up", "__Secure-latch.sign-up"],
    ["passkeySignUp", "latch.passkey-sign-up", "__Secure-latch.passkey-sign-up"],
  ])("names %s %s on http and %s on https", (member, http, https) => {
    expect(defaultCookies(false)[member].name).toBe(http)
    expect(defaultCookies(true)[member].name).toBe(https)
  })

  it("has exactly the eleven cookies of the configuration", () => {
    expect(Object.keys(defaultCookies(false)).sort()).toEqual([...MEMBERS].sort())
    expect(Object.keys(defaultCookies(true)).sort()).toEqual([...MEMBERS].sort())
  })

  it.each([false, true].flatMap((secure) => MEMBERS.map((member) => ({ secure, member }))))(
    "makes $member HttpOnly, SameSite=Lax, Path=/ and Secure=$secure",
    ({ secure, member }) => {
      const { options } = defaultCookies(secure)[member]
      expect(options.httpOnly).toBe(true)
      expect(options.sameSite).toBe("lax")
      expect(options.path).toBe("/")
      expect(options.secure).toBe(secure)
      expect(options.domain).toBeUndefined()
    },
  )

  it.each([false, true].flatMap((secure) => CHECK_MEMBERS.map((member) => ({ secure, member }))))(
    "gives the check cookie $member (secure=$secure) a 15-minute Max-Age",
    ({ secure, member }) => {
      expect(CHECK_COOKIE_MAX_AGE).toBe(900)
      expect(defaultCookies(secure)[member].options.maxAge).toBe(900)
    },
  )

  it.each([
    "sessionToken",
    "callbackUrl",
    "csrfToken",
    "proof",
    "signUp",
    "passkeySignUp",
  ] as Member[])("leaves %s without a Max-Age (its lifetime is set when written)", (member) => {
    expect(defaultCookies(true)[member].options.maxAge).toBeUndefined()
    expect(defaultCookies(false)[member].options.maxAge).toBeUndefined()
  })

  it("serialises the https CSRF cookie as browsers require of a __Host- cookie", () => {
    const { name, options } = defaultCookies(true).csrfToken
    const line = stringifySetCookie(name, "token", options)
    expect(line).toBe("__Host-authjs.csrf-token=token; Path=/; HttpOnly; Secure; SameSite=Lax")
  })

  it("serialises the http session cookie without Secure", () => {
    const { name, options } = defaultCookies(false).sessionToken
    expect(stringifySetCookie(name, "v", options)).toBe(
      "authjs.session-token=v; Path=/; HttpOnly; SameSite=Lax",
    )
  })

  it("returns fresh objects: changing one result does not change the next", () => {
    const first = defaultCookies(true)
    first.sessionToken.name = "changed"
    first.sessionToken.options.path = "/changed"
    first.state.options.maxAge = 1
    const second = defaultCookies(true)
    expect(second.sessionToken.name).toBe("__Secure-authjs.session-token")
    expect(second.sessionToken.options.path).toBe("/")
    expect(second.state.options.maxAge).toBe(900)
  })
})

describe("resolveCookies", () => {
  it.each([undefined, {}])("returns the defaults for overrides %j", (overrides) => {
    expect(resolveCookies(true, overrides)).toEqual(defaultCookies(true))
    expect(resolveCookies(false, overrides)).toEqual(defaultCookies(false))
  })

  it("replaces a name and keeps the default options", () => {
    const cookies = resolveCookies(true, { sessionToken: { name: "my-session" } })
    expect(cookies.sessionToken).toEqual({
      name: "my-session",
      options: defaultCookies(true).sessionToken.options,
    })
  })

  it("merges options into the defaults, keeping the default name", () => {
    const cookies = resolveCookies(true, {
      sessionToken: { options: { domain: "example.com", sameSite: "strict" } },
    })
    expect(cookies.sessionToken).toEqual({
      name: "__Secure-authjs.session-token",
      options: {
        httpOnly: true,
        sameSite: "strict",
        path: "/",
        secure: true,
        domain: "example.com",
      },
    })
  })

  it("keeps the check cookies' Max-Age when only their path is overridden", () => {
    const cookies = resolveCookies(false, { state: { options: { path: "/auth" } } })
    expect(cookies.state.options).toEqual({
      httpOnly: true,
      sameSite: "lax",
      path: "/auth",
      secure: false,
      maxAge: 900,
    })
  })

  it("lets an override set the Max-Age of a check cookie", () => {
    const cookies = resolveCookies(false, { nonce: { options: { maxAge: 60 } } })
    expect(cookies.nonce.options.maxAge).toBe(60)
  })

  it("changes only the members that are overridden", () => {
    const cookies = resolveCookies(true, {
      sessionToken: { name: "s", options: { domain: "example.com" } },
      pkceCodeVerifier: { name: "p" },
    })
    const defaults = defaultCookies(true)
    for (const member of MEMBERS) {
      if (member === "sessionToken" || member === "pkceCodeVerifier") continue
      expect(cookies[member]).toEqual(defaults[member])
    }
    expect(cookies.callbackUrl.options.domain).toBeUndefined()
    expect(cookies.csrfToken.options.domain).toBeUndefined()
    expect(cookies.pkceCodeVerifier).toEqual({
      name: "p",
      options: defaults.pkceCodeVerifier.options,
    })
  })

  it("applies the same overrides on http and https, around the right defaults", () => {
    const overrides = { callbackUrl: { options: { path: "/app" } } }
    expect(resolveCookies(false, overrides).callbackUrl).toEqual({
      name: "authjs.callback-url",
      options: { httpOnly: true, sameSite: "lax", path: "/app", secure: false },
    })
    expect(resolveCookies(true, overrides).callbackUrl).toEqual({
      name: "__Secure-authjs.callback-url",
      options: { httpOnly: true, sameSite: "lax", path: "/app", secure: true },
    })
  })

  it("does not let one member's override leak into members that shared its defaults", () => {
    const cookies = resolveCookies(false, { callbackUrl: { options: { httpOnly: false } } })
    expect(cookies.callbackUrl.options.httpOnly).toBe(false)
    expect(cookies.sessionToken.options.httpOnly).toBe(true)
    expect(cookies.csrfToken.options.httpOnly).toBe(true)
  })

  it("does not mutate the overrides it was given", () => {
    const overrides = { sessionToken: { options: { domain: "example.com" } } }
    const copy = structuredClone(overrides)
    resolveCookies(true, overrides)
    expect(overrides).toEqual(copy)
  })

  it("ignores keys that are not Latch cookies", () => {
    const cookies = resolveCookies(true, { unknown: { name: "x" } } as never)
    expect(Object.keys(cookies).sort()).toEqual([...MEMBERS].sort())
  })
})
