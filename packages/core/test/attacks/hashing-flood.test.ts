/**
 * Attack: making the server hash passwords for nobody.
 *
 * Anyone may post the sign-up form, and a sign-up for a fresh address costs a full scrypt
 * derivation (memory and a few hundred milliseconds of a core). Were sign-ups hashed before any
 * budget and derivations run without a cap, a script would hold the server's cores and memory
 * (found: 16 anonymous sign-ups in 40 s took a real user's sign-in from 2.2 s to 5.4 s on a
 * 2-core machine; a few dozen at once need gigabytes), from one line rotating IPv6 addresses or
 * from many clients.
 *
 * Safe outcome: a sign-up's derivation is counted before it runs, per client (an IPv6 /64,
 * whatever address of it) and for the whole app; over either budget the answer is the usual
 * "check your email", the same for a taken address, and nothing is hashed or mailed. What passes
 * runs a few derivations at once; past the queue a request is refused before any work with
 * `code=busy` and `Retry-After` (never a 500). A real user's sign-in goes before the flood's
 * sign-ups and succeeds.
 *
 * Derivations are counted by the process's limiter, through which every one goes.
 */
import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth, raw } from "../../src/index.js"
import { CredentialsSignin } from "../../src/errors.js"
import { hashPassword, type ScryptParams } from "../../src/password/hash.js"
import { processLimiter } from "../../src/password/limiter.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Password, { type PasswordHashing } from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, ORIGIN, SECRET } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

/** Cheap scrypt parameters, where what is counted is derivations, not their cost. */
const FAST = { ln: 10, r: 8, p: 1 }
/** Parameters slow enough (tens of milliseconds) for a flood to fill the queue. */
const SLOWER = { ln: 14, r: 8, p: 1 }
const GOOD = "correct horse battery"
const ALICE = "alice@example.com"

let sequence = 0
const newAddress = () => `flood-${++sequence}-${Date.now()}@example.com`

/** The n-th address (from 1) of the attacker's line, 2001:db8:7:7::/64, in varied notations. */
function attackerAddress(n: number): string {
  const host = n.toString(16)
  const notations = [
    `2001:db8:7:7::${host}`,
    `2001:0db8:0007:0007:0000:0000:0000:${host.padStart(4, "0")}`,
    `[2001:DB8:7:7:${host.toUpperCase()}::1]`,
  ]
  return notations[n % notations.length]!
}

/** Derivations started in this process so far. */
const derivations = () => processLimiter().stats().started

interface Setup {
  adapter: MemoryAdapter
  config: AuthConfig
  errors: ReturnType<typeof vi.fn>
}

async function setup(hashing: PasswordHashing, scrypt: ScryptParams = FAST): Promise<Setup> {
  const adapter = memoryAdapter()
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: ALICE,
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, await hashPassword(GOOD, scrypt))
  const errors = vi.fn()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [
      Password({ scrypt, hashing }),
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
    ],
    logger: { error: errors, warn: () => {}, debug: () => {} },
  }
  return { adapter, config, errors }
}

/** Posts `path` from a fresh browser at `clientAddress`. */
async function postFrom(
  config: AuthConfig,
  clientAddress: string,
  path: string,
  form: Record<string, string>,
) {
  const browser = new Browser(config)
  browser.clientAddress = clientAddress
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  return { browser, response, location: new URL(response.headers.get("location")!) }
}

const signUpFrom = (config: AuthConfig, clientAddress: string, email = newAddress()) =>
  postFrom(config, clientAddress, "/auth/signup/password", { email, password: GOOD })

const signInFrom = (config: AuthConfig, clientAddress: string, password = GOOD) =>
  postFrom(config, clientAddress, "/auth/callback/password", { email: ALICE, password })

/** The "check your email" page a sign-up answers, as the user sees it. */
const checkYourEmail = (location: URL) =>
  location.pathname === "/auth/verify-request" && location.searchParams.get("type") === "signup"

/** Waits until `ready()`, letting other work run between looks. */
async function until(ready: () => boolean) {
  for (let looks = 0; !ready(); looks++) {
    if (looks > 50_000) throw new Error("never ready")
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe("sign-ups flooding from one IPv6 /64", () => {
  it("derive no more than the per-client budget, answered as usual; another /64 still signs up", async () => {
    const { config } = await setup({ perClient: { max: 3, window: 600 }, global: false })
    const before = derivations()
    const answers: URL[] = []
    for (let n = 1; n <= 12; n++)
      answers.push((await signUpFrom(config, attackerAddress(n))).location)
    expect(derivations() - before).toBe(3)
    expect(answers.every(checkYourEmail)).toBe(true)
    // Over the budget, a taken address and a fresh one get the same answer, and no hash.
    const overBudget = derivations()
    const taken = await signUpFrom(config, attackerAddress(13), ALICE)
    const fresh = await signUpFrom(config, attackerAddress(14))
    expect(taken.location.href).toBe(fresh.location.href)
    expect(derivations()).toBe(overBudget)
    // A client on the next line is not held back by the attacker's budget.
    const neighbour = newAddress()
    const { location } = await signUpFrom(config, "2001:db8:7:8::1", neighbour)
    expect(checkYourEmail(location)).toBe(true)
    expect(derivations()).toBe(overBudget + 1)
    expect((await mailbox.nextFor(neighbour)).subject).toBeTruthy()
  })
})

// Dozens of derivations, one or two at a time: seconds on a busy machine.
describe("sign-ups flooding from many clients", { timeout: 30_000 }, () => {
  it("derive no more than the app's budget, which is logged once", async () => {
    const { config, errors } = await setup({ global: { max: 6, window: 600 } })
    const before = derivations()
    for (let n = 1; n <= 15; n++) {
      const { location } = await signUpFrom(config, `198.51.100.${n}`)
      expect(checkYourEmail(location)).toBe(true)
    }
    expect(derivations() - before).toBe(6)
    const logged = errors.mock.calls.map(([error]) => String((error as Error).message))
    expect(logged.filter((message) => message.includes("hashing.global"))).toHaveLength(1)
  })

  it("past the budgets, run a few at a time; the real user's sign-in goes first and succeeds", async () => {
    const queue = 4
    const { config } = await setup(
      { concurrency: 2, queue, perClient: false, global: false },
      SLOWER,
    )
    const limiter = processLimiter()
    expect(limiter.stats().peak).toBeLessThanOrEqual(2)
    const before = limiter.stats()
    const flood = Array.from({ length: 30 }, (_, n) => signUpFrom(config, `203.0.113.${n + 1}`))
    // The flood fills the queue: one sign-up runs (the other slot is kept from sign-ups), four wait.
    await until(() => limiter.stats().waiting.anonymous === queue)
    const signIn = await signInFrom(config, "192.0.2.10")
    expect(signIn.location.searchParams.get("error")).toBeNull()
    expect((await signIn.browser.session())?.user?.email).toBe(ALICE)

    const answers = await Promise.all(flood)
    const busy = answers.filter(({ location }) => location.searchParams.get("code") === "busy")
    for (const { response, location } of busy) {
      expect(location.pathname).toBe("/auth/signup")
      expect(location.searchParams.get("error")).toBe("PasswordError")
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }
    expect(busy.length).toBeGreaterThan(0)
    expect(answers.filter(({ location }) => checkYourEmail(location))).toHaveLength(
      answers.length - busy.length,
    )
    const after = limiter.stats()
    // Refused ones never derived: every sign-up that was answered "check your email", and the
    // sign-in, derived once; never more than two at once.
    expect(after.started - before.started).toBe(answers.length - busy.length + 1)
    expect(after.refused - before.refused).toBe(busy.length)
    expect(after.peak).toBeLessThanOrEqual(2)
  })
})

// The slot is held by a derivation of a second or two, longer on a busy machine.
describe("a request past a full queue", { timeout: 30_000 }, () => {
  /** Holds the only slot of `{ concurrency: 1, queue: 0 }` with a slow derivation. */
  async function holdTheSlot(): Promise<{ held: Promise<string> }> {
    const limits = { concurrency: 1, queue: 0 }
    const held = hashPassword("held", { ln: 15, r: 8, p: 16 }, { limits })
    await until(() => processLimiter().stats().active > 0)
    return { held }
  }

  it("is refused before any work with code=busy and Retry-After, never a 500", async () => {
    const { config } = await setup({ concurrency: 1, queue: 0 })
    const { held } = await holdTheSlot()
    const started = derivations()

    const signIn = await signInFrom(config, "192.0.2.20")
    expect(signIn.response.status).toBe(302)
    expect(signIn.location.pathname).toBe("/auth/signin")
    expect(signIn.location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(signIn.location.searchParams.get("code")).toBe("busy")
    expect(Number(signIn.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)

    const signUp = await signUpFrom(config, "192.0.2.21")
    expect(signUp.location.pathname).toBe("/auth/signup")
    expect(signUp.location.searchParams.get("code")).toBe("busy")
    expect(Number(signUp.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)

    // The page says so, with no detail of the server.
    const page = await new Browser(config).fetch(
      `${signUp.location.pathname}${signUp.location.search}`,
    )
    const html = await page.text()
    expect(html).toContain("The server is busy")
    expect(html).not.toMatch(/HashingBusy|limiter|at capacity/)

    // A browser client asking for `{ url }` gets it, with the code.
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    const asked = await browser.fetch("/auth/callback/password", {
      headers: { "x-auth-return-redirect": "1" },
      form: { csrfToken, email: ALICE, password: GOOD },
    })
    const { url } = (await asked.json()) as { url: string }
    expect(new URL(url).searchParams.get("code")).toBe("busy")
    expect(Number(asked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)

    // A form action (Auth with `raw`) gets the error thrown, to show, with when to try again.
    const request = new Request(`${ORIGIN}/auth/callback/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: ALICE, password: GOOD }),
    })
    const thrown = await Auth(request, { ...config, raw }, { csrfVerified: true }).catch(
      (error: unknown) => error,
    )
    expect(thrown).toBeInstanceOf(CredentialsSignin)
    expect(thrown).toMatchObject({ code: "busy", retryAfter: expect.any(Number) })

    expect(derivations()).toBe(started)
    await held
    // Once the slot is free, the same sign-in succeeds.
    const later = await signInFrom(config, "192.0.2.20")
    expect(later.location.searchParams.get("error")).toBeNull()
  })
})
