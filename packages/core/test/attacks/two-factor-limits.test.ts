/**
 * Attack: the code step's limits turned against the owner, and its pending state replayed.
 *
 * The attacker knows the password, not the second factor. From as many clients as they like
 * they reach the code step and post wrong codes, to lock the owner out of it; or they hold a
 * copy of a browser's pending two-factor cookie and post it again once the owner used it.
 *
 * Safe outcome: strangers are refused once the account's limit is full, but the owner still gets
 * in — from a device that passed the code step before (its pair is exempt from the account's
 * limit), and from a new device with a recovery code (counted against its pair alone). Right
 * codes never count towards a limit. A used pending state is spent on the server: its copy gets
 * `expired` and no session.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { TOTP_PERIOD, totpAt } from "../../src/flows/two-factor/totp.js"
import { hashPassword } from "../../src/password/hash.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig, TwoFactorOptions } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, SECRET } from "../helpers/request.js"

const FAST = { ln: 10, r: 8, p: 1 }
const PASSWORD = "correct horse battery"
const WINDOW = 900_000

// The limits count in windows aligned to the clock: each test starts one second into a window,
// so that none straddles two. TOTP codes follow the same (fake) clock.
beforeEach(() => {
  vi.useFakeTimers({ now: (Math.floor(Date.now() / WINDOW) + 1) * WINDOW + 1000, toFake: ["Date"] })
})
afterEach(() => vi.useRealTimers())

/**
 * A new client address. Each test gets its own: the limiter remembers, per process, what it saw
 * of a client, and each test has a store of its own.
 */
let clients = 0
const newAddress = () => `198.51.${Math.floor(++clients / 250)}.${clients % 250}`
/** A new IPv6 client: its own /64. */
const newIPv6 = () => `2001:db8:${(++clients).toString(16)}::1`

function setup(twoFactor: TwoFactorOptions = {}) {
  const adapter: MemoryAdapter = memoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    twoFactor,
    providers: [Password({ scrypt: FAST, sendMail: () => {} })],
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
  }
  return { adapter, config }
}

function browser(config: AuthConfig, address: string | undefined) {
  const client = new Browser(config)
  client.clientAddress = address
  return client
}

async function post(client: Browser, path: string, form: Record<string, string> = {}) {
  const csrfToken = await client.csrfToken()
  const response = await client.fetch(path, { form: { csrfToken, ...form } })
  const location = response.headers.get("location")
  return { response, location: location ? new URL(location) : null }
}

const passwordSignIn = (client: Browser, email: string) =>
  post(client, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/home" })

/** The code of the secret for the step `offset` steps from now. */
const codeAt = (secret: string, offset = 0) =>
  totpAt(secret, Date.now() + offset * TOTP_PERIOD * 1000)

/** The code step's answer: `null` when it signed in, else the refusal's code. */
async function codeStep(client: Browser, form: Record<string, string>) {
  const { location } = await post(client, "/auth/two-factor", form)
  return location!.searchParams.get("code")
}

/** A user with a password who turned two-factor on from `address`; signed out. */
async function userWithTwoFactor(
  context: ReturnType<typeof setup>,
  email: string,
  address: string | undefined,
) {
  const user = await context.adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date("2026-01-01"),
  })
  context.adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
  const client = browser(context.config, address)
  await passwordSignIn(client, email)
  const page = await (await client.fetch("/auth/two-factor/setup")).text()
  const setupValue = /name="setup" value="([^"]+)"/.exec(page)![1]!
  const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, "")
  const csrfToken = await client.csrfToken()
  const confirmed = await client.fetch("/auth/two-factor/setup", {
    form: { csrfToken, setup: setupValue, code: await codeAt(secret, -1) },
  })
  expect(confirmed.status).toBe(200)
  const recoveryCodes = [
    ...(await confirmed.text()).matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g),
  ].map((match) => match[1]!)
  expect(recoveryCodes).toHaveLength(10)
  return { user, secret, recoveryCodes }
}

/** Waits for the next TOTP step: each step's code is accepted once. */
const nextStep = () => vi.setSystemTime(Date.now() + TOTP_PERIOD * 1000)

describe("the code step's limits against someone with the password", () => {
  it("a flood from many clients keeps strangers out, not the owner's known device nor a recovery code", async () => {
    const context = setup()
    const home = newAddress()
    const { secret, recoveryCodes } = await userWithTwoFactor(context, "ada@example.com", home)
    // Ada passes the code step at home once: her home is a known pair from then on.
    const before = browser(context.config, home)
    await passwordSignIn(before, "ada@example.com")
    expect(await codeStep(before, { code: await codeAt(secret, 0) })).toBeNull()
    expect(await before.session()).not.toBeNull()

    // The attacker, with the password, posts wrong codes from twenty clients (IPv4 and IPv6).
    const refusals: (string | null)[] = []
    for (let i = 0; i < 20; i++) {
      const attacker = browser(context.config, i % 2 ? newAddress() : newIPv6())
      expect((await passwordSignIn(attacker, "ada@example.com")).location!.pathname).toBe(
        "/auth/two-factor",
      )
      for (let j = 0; j < 3; j++) refusals.push(await codeStep(attacker, { code: "000000" }))
    }
    // Five wrong codes fill the account's limit; from then on, strangers are refused.
    expect(refusals.slice(0, 5)).toEqual(Array(5).fill("wrong_code"))
    expect(refusals.slice(5)).toEqual(Array(55).fill("rate_limited"))
    // A stranger with a right code too: the limit holds for clients that never passed.
    const stranger = browser(context.config, newAddress())
    await passwordSignIn(stranger, "ada@example.com")
    nextStep()
    expect(await codeStep(stranger, { code: await codeAt(secret, 0) })).toBe("rate_limited")
    expect(await stranger.session()).toBeNull()

    // Ada at home: her code is accepted.
    nextStep()
    const atHome = browser(context.config, home)
    await passwordSignIn(atHome, "ada@example.com")
    expect(await codeStep(atHome, { code: await codeAt(secret, 0) })).toBeNull()
    expect((await atHome.session())?.user?.email).toBe("ada@example.com")

    // Ada on a new phone: the app's code waits for the window like a stranger's, a recovery
    // code gets her in.
    nextStep()
    const phone = browser(context.config, newIPv6())
    await passwordSignIn(phone, "ada@example.com")
    expect(await codeStep(phone, { code: await codeAt(secret, 0) })).toBe("rate_limited")
    expect(await codeStep(phone, { recoveryCode: recoveryCodes[0]! })).toBeNull()
    expect((await phone.session())?.user?.email).toBe("ada@example.com")
  })

  it("a known pair keeps its own limit: an attacker behind the owner's address is refused", async () => {
    const context = setup()
    const office = newAddress()
    const { secret } = await userWithTwoFactor(context, "ada@example.com", office)
    const colleague = browser(context.config, office)
    await passwordSignIn(colleague, "ada@example.com")
    const refusals = []
    for (let i = 0; i < 7; i++) refusals.push(await codeStep(colleague, { code: "000000" }))
    expect(refusals).toEqual([...Array(5).fill("wrong_code"), "rate_limited", "rate_limited"])
    nextStep()
    expect(await codeStep(colleague, { code: await codeAt(secret, 0) })).toBe("rate_limited")
    expect(await colleague.session()).toBeNull()
  })

  it("counts recovery codes against their pair: guessing them from one client stops at five", async () => {
    const context = setup()
    const { recoveryCodes } = await userWithTwoFactor(context, "ada@example.com", newAddress())
    const attacker = browser(context.config, newAddress())
    await passwordSignIn(attacker, "ada@example.com")
    const refusals = []
    for (let i = 0; i < 6; i++)
      refusals.push(await codeStep(attacker, { recoveryCode: `aaaaa-aaaa${"abcdef"[i]}` }))
    expect(refusals).toEqual([...Array(5).fill("wrong_code"), "rate_limited"])
    expect(await codeStep(attacker, { recoveryCode: recoveryCodes[1]! })).toBe("rate_limited")
    expect(await attacker.session()).toBeNull()
    // The owner's own pair is untouched: a recovery code works from there.
    const owner = browser(context.config, newAddress())
    await passwordSignIn(owner, "ada@example.com")
    expect(await codeStep(owner, { recoveryCode: recoveryCodes[1]! })).toBeNull()
  })

  it("limits one client holding many accounts' passwords (per client, 10 × attempts)", async () => {
    const context = setup({ rateLimit: { attempts: 2 } })
    const users = []
    for (let i = 0; i < 11; i++)
      users.push(await userWithTwoFactor(context, `user${i}@example.com`, newAddress()))
    const attacker = newAddress()
    const refusals = []
    for (let i = 0; i < 11; i++) {
      const client = browser(context.config, attacker)
      await passwordSignIn(client, `user${i}@example.com`)
      refusals.push(await codeStep(client, { code: "000000" }))
      if (i < 10) refusals.push(await codeStep(client, { code: "000000" }))
    }
    // Two wrong codes for each of ten accounts: twenty, the client's limit; the next is refused.
    expect(refusals.slice(0, 20)).toEqual(Array(20).fill("wrong_code"))
    expect(refusals[20]).toBe("rate_limited")
  })
})

describe("right codes do not count", () => {
  it.each([
    ["without a client address (per account)", () => undefined],
    ["from one client", () => newAddress()],
  ])(
    "signs in eight times with the app's code, then with a recovery code, %s",
    async (_, address) => {
      const context = setup()
      const where = address()
      const { secret, recoveryCodes } = await userWithTwoFactor(context, "ada@example.com", where)
      for (let i = 0; i < 8; i++) {
        nextStep()
        const client = browser(context.config, where)
        await passwordSignIn(client, "ada@example.com")
        expect(await codeStep(client, { code: await codeAt(secret, 0) })).toBeNull()
        expect(await client.session()).not.toBeNull()
      }
      const client = browser(context.config, where)
      await passwordSignIn(client, "ada@example.com")
      expect(await codeStep(client, { recoveryCode: recoveryCodes[0]! })).toBeNull()
      expect(await client.session()).not.toBeNull()
    },
  )

  it("a right code after wrong ones starts the pair's count again", async () => {
    const context = setup()
    const where = newAddress()
    const { secret } = await userWithTwoFactor(context, "ada@example.com", where)
    for (let round = 0; round < 3; round++) {
      nextStep()
      const client = browser(context.config, where)
      await passwordSignIn(client, "ada@example.com")
      for (let i = 0; i < 4; i++)
        expect(await codeStep(client, { code: "000000" })).toBe("wrong_code")
      expect(await codeStep(client, { code: await codeAt(secret, 0) })).toBeNull()
    }
  })
})

describe("a replayed pending two-factor cookie", () => {
  /** The pending state's cookies of a browser: what a thief copies. */
  const pendingCookies = (from: Browser) =>
    [...from.cookies].filter(([name]) => name.includes("two-factor"))
  const copy = (from: Browser, to: Browser) => {
    for (const [name, value] of pendingCookies(from)) to.cookies.set(name, value)
  }

  it("is refused as expired once the owner used it, even with a right code", async () => {
    const context = setup()
    const { secret, recoveryCodes } = await userWithTwoFactor(context, "ada@example.com", undefined)
    const owner = browser(context.config, undefined)
    await passwordSignIn(owner, "ada@example.com")
    const held = pendingCookies(owner)
    expect(held).not.toHaveLength(0)
    nextStep()
    expect(await codeStep(owner, { code: await codeAt(secret, 0) })).toBeNull()
    expect(await owner.session()).not.toBeNull()

    // The copy, with the next step's code, or with a recovery code: no session.
    const forms: Record<string, string>[] = [
      { code: await codeAt(secret, 1) },
      { recoveryCode: recoveryCodes[0]! },
    ]
    for (const form of forms) {
      const thief = browser(context.config, undefined)
      for (const [name, value] of held) thief.cookies.set(name, value)
      const { location } = await post(thief, "/auth/two-factor", form)
      expect(location!.pathname).toBe("/auth/signin")
      expect(location!.searchParams.get("error")).toBe("TwoFactorError")
      expect(location!.searchParams.get("code")).toBe("expired")
      expect(await thief.session()).toBeNull()
    }
  })

  it("starts one session of two posted at once", async () => {
    const context = setup()
    const { secret } = await userWithTwoFactor(context, "ada@example.com", undefined)
    const owner = browser(context.config, undefined)
    await passwordSignIn(owner, "ada@example.com")
    const thief = browser(context.config, undefined)
    copy(owner, thief)
    nextStep()
    const [first, second] = [await owner.csrfToken(), await thief.csrfToken()]
    const [ownerCode, thiefCode] = [await codeAt(secret, 0), await codeAt(secret, 1)]
    const responses = await Promise.all([
      owner.fetch("/auth/two-factor", { form: { csrfToken: first, code: ownerCode } }),
      thief.fetch("/auth/two-factor", { form: { csrfToken: second, code: thiefCode } }),
    ])
    const codes = responses.map((r) => new URL(r.headers.get("location")!).searchParams.get("code"))
    expect(codes.sort()).toEqual(["expired", null].sort())
    const sessions = [await owner.session(), await thief.session()]
    expect(sessions.filter((session) => session !== null)).toHaveLength(1)
  })

  it("of a required setup is no one's once the setup is done, even with a code of the factor", async () => {
    const context = setup({ required: ({ user }) => user.email === "admin@example.com" })
    const user = await context.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "admin@example.com",
      emailVerified: new Date("2026-01-01"),
    })
    context.adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
    const admin = browser(context.config, undefined)
    expect((await passwordSignIn(admin, "admin@example.com")).location!.pathname).toBe(
      "/auth/two-factor",
    )
    const thief = browser(context.config, undefined)
    copy(admin, thief)
    // The thief opens the setup with the copy before the admin completes it.
    const thiefPage = await (await thief.fetch("/auth/two-factor/setup")).text()
    const thiefSetup = /name="setup" value="([^"]+)"/.exec(thiefPage)![1]!
    const thiefSecret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(thiefPage)![1]!.replace(/ /g, "")

    const page = await (await admin.fetch("/auth/two-factor/setup")).text()
    const setupValue = /name="setup" value="([^"]+)"/.exec(page)![1]!
    const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, "")
    const done = await admin.fetch("/auth/two-factor/setup", {
      form: { csrfToken: await admin.csrfToken(), setup: setupValue, code: await codeAt(secret) },
    })
    expect(done.status).toBe(200)
    expect(await admin.session()).not.toBeNull()
    const stored = context.adapter.twoFactors.get(user.id)!.secret

    // The copy, with the thief's setup and a code of the admin's factor (seen over a shoulder).
    nextStep()
    const replayed = await thief.fetch("/auth/two-factor/setup", {
      form: {
        csrfToken: await thief.csrfToken(),
        setup: thiefSetup,
        currentCode: await codeAt(secret, 0),
        code: await codeAt(thiefSecret, 0),
      },
    })
    expect(replayed.status).toBe(302)
    expect(new URL(replayed.headers.get("location")!).searchParams.get("error")).toBe(
      "TwoFactorError",
    )
    expect(context.adapter.twoFactors.get(user.id)!.secret).toBe(stored)
    expect(await thief.session()).toBeNull()
  })
})
