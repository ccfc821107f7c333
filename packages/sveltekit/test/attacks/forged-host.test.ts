/**
 * Attack: forged host and forwarding headers through SvelteKit.
 *
 * SvelteKit's adapter computed `event.url` from the deployer's settings (adapter-node: `ORIGIN`,
 * or the `PROTOCOL_HEADER`/`HOST_HEADER` the deployer named). A request's own `Host`,
 * `X-Forwarded-Host`, `X-Forwarded-Proto`, `Forwarded` and `X-Forwarded-For` are the client's
 * words. Each case: the attacker's request with all of them forged, through the handle and the
 * form actions, and the safe outcome — URLs (mailed links included) at `event.url`'s origin, the
 * rate limit counting the address SvelteKit reports.
 */
import Email from "@latch/core/providers/email"
import { afterEach, describe, expect, it, vi } from "vitest"
import { memoryAdapter } from "../../../core/test/helpers/memory-adapter.js"
import { SvelteKitAuth } from "../../src/lib/index.js"
import { testConfig } from "../helpers/config.js"
import { ORIGIN, createEvent, createResolve } from "../helpers/event.js"
import { setDev } from "../stubs/app-environment.js"
import { env } from "../stubs/env-dynamic-private.js"

const EVIL = "evil.example"
const FORGED = {
  host: EVIL,
  "x-forwarded-host": EVIL,
  "x-forwarded-proto": "https",
  forwarded: `for=192.0.2.1;host=${EVIL};proto=https`,
  "x-forwarded-for": "192.0.2.1",
}

function setup(extra: Parameters<typeof testConfig>[0] = {}) {
  const send = vi.fn()
  const warn = vi.fn()
  const auth = SvelteKitAuth(
    testConfig({
      adapter: memoryAdapter(),
      providers: [Email({ sendVerificationRequest: send, rateLimit: { perClient: 1 } })],
      logger: { error: () => {}, warn, debug: () => {} },
      ...extra,
    }),
  )
  return { ...auth, send, warn }
}

/** The link of the n-th mail sent. */
const linkOf = (send: ReturnType<typeof vi.fn>, n = 0) => new URL(send.mock.calls[n]![0].url)

describe("forged host headers in SvelteKit", () => {
  it("mail links from the handle start at event.url's origin", async () => {
    const { handle, send } = setup()
    const event = createEvent("/auth/signin/email", {
      form: { email: "alice@example.com" },
      headers: { ...FORGED, origin: ORIGIN, "x-auth-return-redirect": "1" },
    })
    const response = await handle({ event, resolve: createResolve() })
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).origin).toBe(ORIGIN)
    expect(linkOf(send).origin).toBe(ORIGIN)
    expect(new URL(linkOf(send).searchParams.get("callbackUrl")!).origin).toBe(ORIGIN)
    expect(JSON.stringify(send.mock.calls[0]![0].url)).not.toContain(EVIL)
  })

  it("mail links from the signIn form action start at event.url's origin", async () => {
    const { signIn, send } = setup()
    const event = createEvent("/signin", {
      form: { providerId: "email", email: "bob@example.com" },
      headers: { ...FORGED, origin: ORIGIN },
    })
    const thrown = await signIn(event).catch((redirect: { location: string }) => redirect)
    expect(new URL(thrown.location, ORIGIN).origin).toBe(ORIGIN)
    expect(linkOf(send).origin).toBe(ORIGIN)
  })

  it("the providers list names event.url's origin", async () => {
    const { handle } = setup()
    const event = createEvent("/auth/providers", { headers: FORGED })
    const response = await handle({ event, resolve: createResolve() })
    const text = await response.text()
    expect(text).toContain(`${ORIGIN}/auth/signin/email`)
    expect(text).not.toContain(EVIL)
  })

  it("counts the client SvelteKit reports, whatever X-Forwarded-For says", async () => {
    const { handle, send } = setup()
    const post = async (email: string, clientAddress: string, forwardedFor: string) => {
      const event = createEvent("/auth/signin/email", {
        form: { email },
        headers: { origin: ORIGIN, "x-forwarded-for": forwardedFor },
      })
      event.getClientAddress = () => clientAddress
      await handle({ event, resolve: createResolve() })
    }
    // One client rotating the header stays one client (perClient: 1)…
    await post("a@example.com", "203.0.113.1", "198.51.100.1")
    await post("b@example.com", "203.0.113.1", "198.51.100.2")
    // …and another client naming the first in the header is not counted as it.
    await post("c@example.com", "203.0.113.2", "203.0.113.1")
    expect(send.mock.calls.map(([params]) => params.identifier)).toEqual([
      "a@example.com",
      "c@example.com",
    ])
  })
})

describe("an origin that follows the Host header", () => {
  afterEach(() => {
    setDev(true)
    delete env.NODE_ENV
    delete env.ORIGIN
  })

  /** The warnings of the first request of a production build with `variables`. */
  async function productionWarnings(variables: Record<string, string | undefined>) {
    setDev(false)
    // As adapter-node's `node build` runs: no NODE_ENV (vitest's own "test" is masked).
    Object.assign(env, { NODE_ENV: undefined, ...variables })
    const { handle, warn } = setup()
    await handle({ event: createEvent("/auth/csrf"), resolve: createResolve() })
    return warn.mock.calls.map(([code]) => code)
  }

  it("is warned about in a production build without ORIGIN or AUTH_URL", async () => {
    expect(await productionWarnings({})).toContain("origin-from-request")
  })

  it("is not warned about when adapter-node's ORIGIN pins it", async () => {
    expect(await productionWarnings({ ORIGIN })).not.toContain("origin-from-request")
  })

  it("is not warned about in development", async () => {
    const { handle, warn } = setup()
    await handle({ event: createEvent("/auth/csrf"), resolve: createResolve() })
    expect(warn.mock.calls.map(([code]) => code)).not.toContain("origin-from-request")
  })
})
