/**
 * `@simplewebauthn/server` is loaded through the loader the WebAuthn provider's module carries
 * (so that core's own modules never name the package): a provider made by `WebAuthn()` or
 * `Passkey()` loads it, copies of such a provider keep the loader, and one written by hand as a
 * plain object needs the four functions in `simpleWebAuthn`, or gets a configuration error that
 * says so.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import Passkey from "../../src/providers/passkey.js"
import type { SimpleWebAuthnMethods, WebAuthnConfig } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ORIGIN, SECRET } from "../helpers/request.js"

function configWith(provider: WebAuthnConfig, errors: Error[] = []): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: memoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [provider],
    logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
  }
}

async function options(config: AuthConfig, id = "passkey") {
  const response = await Auth(new Request(`${ORIGIN}/auth/webauthn-options/${id}`), config)
  return { response, body: (await response.json()) as Record<string, any> }
}

describe("loading @simplewebauthn/server", () => {
  it("works for a copy of a Passkey() provider (the loader survives a spread)", async () => {
    const { response, body } = await options(configWith({ ...Passkey(), name: "Mine" }))
    expect(response.status).toBe(200)
    expect(body.action).toBe("authenticate")
    expect(typeof body.options.challenge).toBe("string")
  })

  it("is a configuration error naming the fix for a hand-written provider object", async () => {
    const { [Symbol.for("latch.simplewebauthn")]: _, ...plain } = Passkey() as WebAuthnConfig & {
      [key: symbol]: unknown
    }
    const errors: Error[] = []
    const { response } = await options(configWith(plain as WebAuthnConfig, errors))
    expect(response.status).toBe(500)
    expect(errors.map((error) => error.message).join("\n")).toMatch(
      /not made by WebAuthn\(\) or Passkey\(\).*simpleWebAuthn/,
    )
  })

  it("needs no loader when simpleWebAuthn gives all four functions", async () => {
    const { [Symbol.for("latch.simplewebauthn")]: _, ...plain } = Passkey() as WebAuthnConfig & {
      [key: symbol]: unknown
    }
    const calls: string[] = []
    const own: SimpleWebAuthnMethods = {
      generateAuthenticationOptions: async (input: { rpID: string }) => {
        calls.push("generateAuthenticationOptions")
        return { challenge: "own-challenge", rpId: input.rpID }
      },
      generateRegistrationOptions: async () => ({}),
      verifyAuthenticationResponse: async () => ({}),
      verifyRegistrationResponse: async () => ({}),
    }
    const provider = { ...plain, simpleWebAuthn: own } as WebAuthnConfig
    const { response, body } = await options(configWith(provider))
    expect(response.status).toBe(200)
    expect(calls).toEqual(["generateAuthenticationOptions"])
    expect(body.options.challenge).toBe("own-challenge")
  })
})
