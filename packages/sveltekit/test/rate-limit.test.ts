/**
 * The credentials rate limit of core, as a SvelteKit app sees it: the `signIn` form action throws
 * the coded `CredentialsSignin` (`code: "rate_limited"`), so that the page shows it inline, and
 * the page's answer carries `Retry-After`; the `handle` counts by `event.getClientAddress()`,
 * never by a header the client wrote.
 */
import { fail, isActionFailure, isRedirect, type RequestEvent } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import { CredentialsSignin, SvelteKitAuth } from "../src/lib/index.js"
import Credentials from "../src/lib/providers/credentials.js"
import { testConfig } from "./helpers/config.js"
import { Browser, ORIGIN, createEvent, type TestEvent } from "./helpers/event.js"

let sequence = 0
const unique = (name: string) => `${name}-${++sequence}-${Date.now().toString(36)}`

/** An app whose one account (`owner`) signs in with "right"; authorize's calls are kept. */
function app() {
  const owner = unique("owner")
  const calls: string[] = []
  const auth = SvelteKitAuth(
    testConfig({
      providers: [
        Credentials({
          credentials: { username: { label: "Username" }, password: { type: "password" } },
          rateLimit: { perPair: 3 },
          authorize: ({ username, password }) => {
            calls.push(String(username))
            return username === owner && password === "right"
              ? { id: owner, name: owner, email: `${owner}@example.com` }
              : null
          },
        }),
      ],
    }),
  )
  return { auth, owner, calls }
}

/** A form post to the page `/signin`, from `address`, recording the headers the action sets. */
function formEvent(address: string, form: Record<string, string>) {
  const event = createEvent("/signin", {
    form: { providerId: "credentials", ...form },
    headers: { origin: ORIGIN, "x-forwarded-for": "192.0.2.99" },
  })
  const headers: Record<string, string> = {}
  event.getClientAddress = () => address
  event.setHeaders = (set) => {
    for (const [name, value] of Object.entries(set)) {
      if (name.toLowerCase() in headers) throw new Error(`"${name}" header is already set`)
      headers[name.toLowerCase()] = value
    }
  }
  return { event, headers }
}

/** The page's action, as the README writes it: a refused sign-in comes back inline. */
const pageAction =
  (signIn: (event: RequestEvent) => Promise<never>) =>
  async (event: TestEvent): Promise<{ status: number; data: unknown } | undefined> => {
    try {
      return await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) {
        const failure = fail(400, { code: error.code })
        return isActionFailure(failure) ? failure : undefined
      }
      throw error
    }
  }

describe("the signIn form action over the credentials rate limit", () => {
  it("shows the coded error inline (fail 400, code rate_limited) with Retry-After", async () => {
    const { auth, owner, calls } = app()
    const action = pageAction(auth.signIn)
    const address = "203.0.113.50"
    for (let i = 0; i < 3; i++) {
      const { event, headers } = formEvent(address, { username: owner, password: "wrong" })
      const result = await action(event)
      expect(result?.data).toEqual({ code: "credentials" })
      expect(headers).toEqual({})
    }
    const { event, headers } = formEvent(address, { username: owner, password: "right" })
    const result = await action(event)
    expect(isActionFailure(result)).toBe(true)
    expect(result?.status).toBe(400)
    expect(result?.data).toEqual({ code: "rate_limited" })
    expect(Number(headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(Number(headers["retry-after"])).toBeLessThanOrEqual(900)
    // The fourth attempt never reached authorize.
    expect(calls).toEqual([owner, owner, owner])
  })

  it("throws the same CredentialsSignin to an action that does not catch it", async () => {
    const { auth, owner } = app()
    const address = "203.0.113.51"
    for (let i = 0; i < 3; i++) {
      await auth
        .signIn(formEvent(address, { username: owner, password: "wrong" }).event)
        .catch(() => {})
    }
    const error = await auth
      .signIn(formEvent(address, { username: owner, password: "wrong" }).event)
      .catch((caught: unknown) => caught)
    expect(isRedirect(error)).toBe(false)
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect((error as CredentialsSignin).code).toBe("rate_limited")
    expect((error as { retryAfter?: number }).retryAfter).toBeGreaterThanOrEqual(1)
  })

  it("counts by getClientAddress: another address still signs in, a forged header changes nothing", async () => {
    const { auth, owner } = app()
    const codes: unknown[] = []
    for (let i = 0; i < 5; i++) {
      // Same forged X-Forwarded-For as the owner's below: it is not what is counted.
      const attacker = formEvent("203.0.113.52", { username: owner, password: "wrong" })
      codes.push(await auth.signIn(attacker.event).catch((error: CredentialsSignin) => error.code))
    }
    expect(codes).toEqual([
      "credentials",
      "credentials",
      "credentials",
      "rate_limited",
      "rate_limited",
    ])
    const owners = formEvent("203.0.113.53", { username: owner, password: "right" })
    const redirect = await auth.signIn(owners.event).catch((caught: unknown) => caught)
    expect(isRedirect(redirect)).toBe(true)
    expect(owners.headers).toEqual({})
  })
})

describe("the handle over the credentials rate limit", () => {
  it("redirects to the sign-in page with code=rate_limited and Retry-After", async () => {
    const { auth, owner } = app()
    const browser = new Browser(auth.handle)
    const post = async (password: string) => {
      const csrfToken = await browser.csrfToken()
      const { response } = await browser.fetch("/auth/callback/credentials", {
        form: { csrfToken, username: owner, password },
        headers: { "x-forwarded-for": unique("198.51.100") },
      })
      return response
    }
    for (let i = 0; i < 3; i++) {
      const response = await post("wrong")
      expect(response.headers.get("location")).toBe(
        `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
      )
    }
    const refused = await post("right")
    expect(refused.status).toBe(302)
    expect(refused.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=rate_limited`,
    )
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
  })
})
