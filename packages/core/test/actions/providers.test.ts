import { describe, expect, it } from "vitest"

import Credentials from "../../src/providers/credentials.js"
import { ALICE, Browser, testConfig } from "../helpers/request.js"

describe("GET /auth/providers", () => {
  it("answers the providers keyed by id, with absolute sign-in and callback URLs", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/providers")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/credentials",
        callbackUrl: "http://localhost:3000/auth/callback/credentials",
      },
    })
  })

  it("sets no cookie", async () => {
    const response = await new Browser(testConfig()).fetch("/auth/providers")
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("does not expose authorize or the credential fields", async () => {
    const body = await (await new Browser(testConfig()).fetch("/auth/providers")).text()
    expect(body).not.toContain("authorize")
    expect(body).not.toContain("password")
  })

  it("lists several providers under their own ids and names", async () => {
    const config = testConfig({
      providers: [
        Credentials({ id: "password", name: "Password", authorize: () => ALICE }),
        Credentials({ id: "otp", name: "One-time code", authorize: () => null }),
      ],
    })
    const body = (await (await new Browser(config).fetch("/auth/providers")).json()) as Record<
      string,
      Record<string, string>
    >
    expect(Object.keys(body)).toEqual(["password", "otp"])
    expect(body.otp).toMatchObject({
      id: "otp",
      name: "One-time code",
      signinUrl: "http://localhost:3000/auth/signin/otp",
      callbackUrl: "http://localhost:3000/auth/callback/otp",
    })
  })

  it("builds the URLs under a custom basePath", async () => {
    const browser = new Browser(testConfig({ basePath: "/api/auth" }))
    const response = await browser.fetch("/api/auth/providers")
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, Record<string, string>>
    expect(body.credentials!.signinUrl).toBe("http://localhost:3000/api/auth/signin/credentials")
    expect(body.credentials!.callbackUrl).toBe(
      "http://localhost:3000/api/auth/callback/credentials",
    )
    expect((await browser.fetch("/auth/providers")).status).toBe(400)
  })

  it.each([
    ["/api/auth/", "/api/auth"],
    ["api/auth", "/api/auth"],
    ["/", ""],
  ])("normalizes basePath %j", async (basePath, normalized) => {
    const browser = new Browser(testConfig({ basePath }))
    const response = await browser.fetch(`${normalized}/providers`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, Record<string, string>>
    expect(body.credentials!.signinUrl).toBe(
      `http://localhost:3000${normalized}/signin/credentials`,
    )
  })

  it("encodes provider ids in the URLs", async () => {
    const config = testConfig({
      providers: [Credentials({ id: "my pass", authorize: () => ALICE })],
    })
    const body = (await (await new Browser(config).fetch("/auth/providers")).json()) as Record<
      string,
      Record<string, string>
    >
    expect(body["my pass"]!.callbackUrl).toBe("http://localhost:3000/auth/callback/my%20pass")
  })

  it("builds the URLs from the request's origin", async () => {
    const browser = new Browser(testConfig(), "https://example.com")
    const body = (await (await browser.fetch("/auth/providers")).json()) as Record<
      string,
      Record<string, string>
    >
    expect(body.credentials!.signinUrl).toBe("https://example.com/auth/signin/credentials")
  })

  it("accepts a provider given as a factory function", async () => {
    const config = testConfig({
      providers: [() => Credentials({ id: "factory", name: "Factory", authorize: () => ALICE })],
    })
    const response = await new Browser(config).fetch("/auth/providers")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      factory: {
        id: "factory",
        name: "Factory",
        type: "credentials",
        signinUrl: "http://localhost:3000/auth/signin/factory",
        callbackUrl: "http://localhost:3000/auth/callback/factory",
      },
    })
  })

  // Auth.js accepts `providers: [Credentials]` (the factory itself, uncalled): its `authorize`
  // defaults to `() => null`, so the provider is listed and every attempt is refused.
  it("accepts the Credentials factory uncalled, as Auth.js does", async () => {
    const browser = new Browser(testConfig({ providers: [Credentials as never] }))
    const response = await browser.fetch("/auth/providers")
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      credentials: { id: "credentials", name: "Credentials", type: "credentials" },
    })
    const signIn = await browser.signIn()
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials",
    )
  })

  it.each([
    [
      "two providers with one id",
      [Credentials({ authorize: () => null }), Credentials({ authorize: () => null })],
    ],
    ["a credentials provider without authorize", [{ id: "x", name: "X", type: "credentials" }]],
    ["a provider without an id", [{ name: "X", type: "credentials", authorize: () => null }]],
  ])("answers a 500 configuration error, not a crash, for %s", async (_case, providers) => {
    const response = await new Browser(testConfig({ providers: providers as never })).fetch(
      "/auth/providers",
    )
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
  })
})
