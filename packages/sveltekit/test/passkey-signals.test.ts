/**
 * The Signal API calls of `@latch/sveltekit/webauthn` where a browser has none of the methods,
 * some, or methods that refuse: each call made only where it exists, with the fields the spec
 * names, and never a throw. (In Chromium, with the real methods: e2e/passkey-management.spec.ts.)
 */
import { afterEach, describe, expect, it } from "vitest"
import { signalPasskeys, signalUnknownCredential } from "../src/lib/passkey-signals.js"

const DATA = {
  rpId: "example.com",
  userId: "dXNlci0x",
  name: "ada@example.com",
  displayName: "Ada",
  allAcceptedCredentialIds: ["Y3JlZC0x", "Y3JlZC0y"],
}

const global = globalThis as { PublicKeyCredential?: unknown }
afterEach(() => {
  delete global.PublicKeyCredential
})

/** A `PublicKeyCredential` with the given methods, recording their calls. */
function browserWith(methods: Record<string, (options: unknown) => Promise<void>>) {
  const calls: Array<[string, unknown]> = []
  const api: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(methods))
    api[name] = (options: unknown) => {
      calls.push([name, options])
      return method(options)
    }
  global.PublicKeyCredential = api
  return calls
}

describe("the Signal API", () => {
  it("does nothing, and does not throw, without WebAuthn or without the methods", async () => {
    await expect(signalPasskeys(DATA)).resolves.toBeUndefined()
    expect(await signalUnknownCredential("example.com", "Y3JlZC0x")).toBe(false)
    browserWith({})
    await expect(signalPasskeys(DATA)).resolves.toBeUndefined()
    expect(await signalUnknownCredential("example.com", "Y3JlZC0x")).toBe(false)
    await expect(signalPasskeys(null)).resolves.toBeUndefined()
  })

  it("calls each method the browser has, with the fields it takes", async () => {
    const ok = async () => {}
    const calls = browserWith({
      signalAllAcceptedCredentials: ok,
      signalCurrentUserDetails: ok,
      signalUnknownCredential: ok,
    })
    await signalPasskeys(DATA)
    expect(await signalUnknownCredential("example.com", "Y3JlZC0z")).toBe(true)
    expect(calls).toEqual([
      [
        "signalAllAcceptedCredentials",
        {
          rpId: "example.com",
          userId: "dXNlci0x",
          allAcceptedCredentialIds: ["Y3JlZC0x", "Y3JlZC0y"],
        },
      ],
      [
        "signalCurrentUserDetails",
        { rpId: "example.com", userId: "dXNlci0x", name: "ada@example.com", displayName: "Ada" },
      ],
      ["signalUnknownCredential", { rpId: "example.com", credentialId: "Y3JlZC0z" }],
    ])
  })

  it("swallows a browser's refusal, and still makes the other call", async () => {
    const calls = browserWith({
      signalAllAcceptedCredentials: async () => {
        throw new DOMException("not allowed", "SecurityError")
      },
      signalCurrentUserDetails: async () => {},
    })
    await expect(signalPasskeys(DATA)).resolves.toBeUndefined()
    expect(calls.map(([name]) => name)).toEqual([
      "signalAllAcceptedCredentials",
      "signalCurrentUserDetails",
    ])
  })
})
