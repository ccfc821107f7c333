/**
 * `getAccessToken(event, provider)`: the handle remembers the request's configuration, and the
 * token comes from the session (JWT) as core keeps it for providers with `refresh` on. The
 * refresh itself, against a real OpenID Provider, is core's test (test/flows/refresh.test.ts).
 */
import { encode } from "@latch/core/jwt"
import { describe, expect, it } from "vitest"
import { getAccessToken, SvelteKitAuth } from "../src/lib/index.js"
import { testConfig } from "./helpers/config.js"
import { createEvent, createResolve, SECRET, SESSION_COOKIE } from "./helpers/event.js"

const now = () => Math.floor(Date.now() / 1000)

/** A handle with a refreshing OpenID provider (never reached: its tokens are not due). */
function app() {
  const config = testConfig()
  config.providers.push({
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: "https://op.example.com",
    clientId: "client",
    clientSecret: "secret",
    refresh: true,
  })
  return SvelteKitAuth(config)
}

/** A session cookie keeping the provider's tokens. */
async function sessionWith(oauth: Record<string, unknown>) {
  return encode({
    token: {
      sub: "u1",
      name: "Alice",
      oauth: { provider: "op", providerAccountId: "a1", ...oauth },
    },
    secret: SECRET,
    salt: SESSION_COOKIE,
  })
}

async function handled(cookie?: string) {
  const { handle } = app()
  const event = createEvent("/repos", cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {})
  await handle({ event, resolve: createResolve() })
  return event
}

describe("getAccessToken", () => {
  it("gives the signed-in user's access token at the provider", async () => {
    const event = await handled(
      await sessionWith({ access_token: "at-1", expires_at: now() + 3600 }),
    )
    expect(await getAccessToken(event, "op")).toBe("at-1")
  })

  it("gives null for another provider, without a session, and for an expired token", async () => {
    const cookie = await sessionWith({ access_token: "at-1", expires_at: now() + 3600 })
    expect(await getAccessToken(await handled(cookie), "github")).toBeNull()
    expect(await getAccessToken(await handled(), "op")).toBeNull()
    // Expired, with no refresh token to renew it: nothing is fetched, and the answer is null.
    const expired = await sessionWith({ access_token: "at-0", expires_at: now() - 10 })
    const event = await handled(expired)
    expect(await getAccessToken(event, "op")).toBeNull()
    expect(await event.locals.auth()).toMatchObject({ error: "RefreshTokenError" })
  })

  it("needs the handle to have run for the request", async () => {
    const event = createEvent("/repos")
    await expect(getAccessToken(event, "op")).rejects.toThrow(/hooks\.server/)
  })
})
