// Email sign-in through the handle: the client address SvelteKit reports reaches the per-client
// rate limit, from the handle and from the signIn form action.
import Email from "@latch/core/providers/email"
import { describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { SvelteKitAuth } from "../src/lib/index.js"
import { testConfig } from "./helpers/config.js"
import { ORIGIN, createEvent, createResolve } from "./helpers/event.js"

function setup() {
  const send = vi.fn()
  const auth = SvelteKitAuth(
    testConfig({
      adapter: memoryAdapter(),
      providers: [Email({ sendVerificationRequest: send, rateLimit: { perClient: 1 } })],
    }),
  )
  return { ...auth, send }
}

describe("email sign-in in SvelteKit", () => {
  it("limits links per client address as SvelteKit reports it", async () => {
    const { handle, send } = setup()
    const post = async (email: string, clientAddress: string) => {
      const event = createEvent("/auth/signin/email", {
        form: { email },
        headers: { origin: ORIGIN, "x-auth-return-redirect": "1" },
      })
      event.getClientAddress = () => clientAddress
      const response = await handle({ event, resolve: createResolve() })
      return ((await response.json()) as { url: string }).url
    }
    const first = await post("a@example.com", "203.0.113.1")
    expect(new URL(first).pathname).toBe("/auth/verify-request")
    // Over the limit: the same page, no mail.
    expect(await post("b@example.com", "203.0.113.1")).toBe(first)
    await post("c@example.com", "203.0.113.2")
    expect(send.mock.calls.map(([params]) => params.identifier)).toEqual([
      "a@example.com",
      "c@example.com",
    ])
  })

  it("the signIn form action sends the link and redirects to verify-request with 303", async () => {
    const { signIn, send } = setup()
    const event = createEvent("/signin", {
      form: { providerId: "email", email: "d@example.com", redirectTo: "/home" },
      headers: { origin: ORIGIN },
    })
    await expect(signIn(event)).rejects.toMatchObject({
      status: 303,
      location: expect.stringContaining("/auth/verify-request?provider=email&type=email"),
    })
    expect(send).toHaveBeenCalledTimes(1)
    expect(new URL(send.mock.calls[0]![0].url).searchParams.get("callbackUrl")).toBe(
      `${ORIGIN}/home`,
    )
  })
})
