/**
 * Attack: fresh rate-limit counters from rotating IPv6 addresses.
 *
 * One subscriber line gets a whole /64 and may send from any address in it. Were a per-client
 * limit counted per address, an attacker on one line would get a fresh counter with every
 * request: unlimited sign-in links, sign-up and reset mails to addresses of their choosing (an
 * inbox flood, paid for by the site's mail reputation), unlimited guesses at reset links, and
 * unlimited `webauthn-options` probes of an app's `getUserInfo`.
 *
 * Safe outcome: every per-client limit counts an IPv6 client by its /64 (`clientOf`), whatever
 * notation the integration reports the address in, so the attacker is stopped at the limit;
 * a client in another /64 is not.
 */
import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { DEFAULT_PER_CLIENT } from "../../src/flows/email/rate-limit.js"
import { PASSWORD_LIMITS } from "../../src/flows/password/rate-limit.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import type { WebAuthnUserConfig } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, SECRET } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())
afterEach(() => vi.useRealTimers())

/** Cheap scrypt parameters for tests (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }
/** A password the default policy accepts. */
const GOOD = "correct horse battery"
/** Requests the attacker sends beyond each limit. */
const BEYOND = 5
/** The webauthn-options limit for these tests (the default, 60 a minute, would only be slower). */
const OPTIONS_PER_CLIENT = 5

/**
 * The n-th address (from 1) of the attacker's line, 2001:db8:1:2::/64, written in turn as an
 * integration may report it: compressed, in full, upper-case, bracketed.
 */
function attackerAddress(n: number): string {
  const host = n.toString(16)
  const notations = [
    `2001:db8:1:2::${host}`,
    `2001:0db8:0001:0002:0000:0000:0000:${host.padStart(4, "0")}`,
    `2001:DB8:1:2:FFFF::${host.toUpperCase()}`,
    `[2001:db8:1:2:${host}::9]`,
  ]
  return notations[n % notations.length]!
}

/** A client on another line: the next /64. */
const NEIGHBOUR = "2001:db8:1:3::1"

let sequence = 0
/** A fresh mail address per request: the per-address limits never come into play. */
const newAddress = (run: string) => `${run}-${++sequence}@example.com`
const newRun = () => `v6-${++sequence}-${Date.now()}`

/**
 * An app's own `getUserInfo` that looks the address up: the kind whose anonymous
 * `webauthn-options` requests are counted.
 */
const lookup: WebAuthnUserConfig["getUserInfo"] = async ({ adapter }, request) => {
  const email = request.query.email
  if (!email) return null
  const user = await adapter.getUserByEmail!(email)
  return { user: user ?? { email }, exists: user !== null }
}

function setup(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: memoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [
      Password({ scrypt: FAST }),
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
      Passkey({ getUserInfo: lookup, rateLimit: { perClient: OPTIONS_PER_CLIENT, window: 60 } }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

/** Posts a form from a fresh browser at `clientAddress`; returns where the answer redirects. */
async function postFrom(
  config: AuthConfig,
  clientAddress: string,
  path: string,
  form: Record<string, string>,
): Promise<URL> {
  const browser = new Browser(config)
  browser.clientAddress = clientAddress
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  return new URL(response.headers.get("location")!)
}

/**
 * The mails of a run received once sending has settled: those expected, then whatever else
 * arrives within a moment.
 */
async function mailsOf(run: string, expected: number): Promise<number> {
  const count = () => mailbox.messages.filter((mail) => mail.envelope.to[0]!.startsWith(run)).length
  for (let waited = 0; count() < expected && waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  return count()
}

/**
 * A form that sends a mail to the address it is given: the attacker sends `limit + BEYOND` from
 * rotating addresses of one /64, each to a fresh address; `limit` mails arrive. A neighbour's
 * request then still sends its mail.
 */
async function floodFromOneLine(
  send: (config: AuthConfig, clientAddress: string, to: string) => Promise<unknown>,
  limit: number,
): Promise<{ delivered: number; neighbour: number }> {
  const config = setup()
  const run = newRun()
  for (let n = 1; n <= limit + BEYOND; n++) await send(config, attackerAddress(n), newAddress(run))
  const delivered = await mailsOf(run, limit)
  const theirs = newRun()
  await send(config, NEIGHBOUR, newAddress(theirs))
  return { delivered, neighbour: await mailsOf(theirs, 1) }
}

describe("a client rotating addresses within one IPv6 /64", () => {
  it("is stopped at the per-client limit of email sign-in links", async () => {
    const result = await floodFromOneLine(
      (config, clientAddress, email) =>
        postFrom(config, clientAddress, "/auth/signin/nodemailer", { email }),
      DEFAULT_PER_CLIENT,
    )
    expect(result).toEqual({ delivered: DEFAULT_PER_CLIENT, neighbour: 1 })
  })

  it("is stopped at the per-client limit of sign-up mails", async () => {
    const limit = PASSWORD_LIMITS.mailPerClient.max
    const result = await floodFromOneLine(
      (config, clientAddress, email) =>
        postFrom(config, clientAddress, "/auth/signup/password", { email, password: GOOD }),
      limit,
    )
    expect(result).toEqual({ delivered: limit, neighbour: 1 })
  })

  it("is stopped at the per-client limit of reset mails", async () => {
    const limit = PASSWORD_LIMITS.mailPerClient.max
    // Reset requests for addresses without an account: each mails a notice all the same.
    const result = await floodFromOneLine(
      (config, clientAddress, email) =>
        postFrom(config, clientAddress, "/auth/reset-password/password", { email }),
      limit,
    )
    expect(result).toEqual({ delivered: limit, neighbour: 1 })
  })

  it("is stopped at the per-client limit of new passwords (guesses at reset links)", async () => {
    const config = setup()
    const limit = PASSWORD_LIMITS.newPasswordPerClient.max
    const guess = (clientAddress: string) =>
      postFrom(config, clientAddress, "/auth/new-password/password", {
        token: `guessed-${++sequence}`,
        password: GOOD,
      })
    const codes: (string | null)[] = []
    for (let n = 1; n <= limit + BEYOND; n++) {
      codes.push((await guess(attackerAddress(n))).searchParams.get("code"))
    }
    // Each guess within the limit reaches the token (and is refused as not a link of ours).
    expect(codes.filter((code) => code === "rate_limited")).toHaveLength(BEYOND)
    expect(codes.slice(limit)).toEqual(Array(BEYOND).fill("rate_limited"))
    expect((await guess(NEIGHBOUR)).searchParams.get("code")).not.toBe("rate_limited")
  })

  it("is stopped at the per-client limit of anonymous webauthn-options requests", async () => {
    const config = setup()
    // Windows are aligned to the clock: a second into one, the requests never straddle two.
    const span = 60_000
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / span) * span + span + 1000 })
    const ask = async (clientAddress: string) => {
      const browser = new Browser(config)
      browser.clientAddress = clientAddress
      const query = new URLSearchParams({ action: "register", email: newAddress(newRun()) })
      return (await browser.fetch(`/auth/webauthn-options/passkey?${query}`)).status
    }
    const statuses: number[] = []
    for (let n = 1; n <= OPTIONS_PER_CLIENT + BEYOND; n++) {
      statuses.push(await ask(attackerAddress(n)))
    }
    expect(statuses).toEqual([...Array(OPTIONS_PER_CLIENT).fill(200), ...Array(BEYOND).fill(429)])
    expect(await ask(NEIGHBOUR)).toBe(200)
  })
})
