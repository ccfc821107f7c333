/**
 * Brute-force protection of credentials sign-in, through `Auth` as a browser and an attacker
 * would drive it: failed attempts limited per (account, address), per account and per address;
 * refusals without calling `authorize`, with `code=rate_limited` and `Retry-After`; and no
 * lockout weapon — the owner still signs in from a device they used before.
 *
 * Every test uses accounts and addresses of its own: the counters live in the process's memory
 * store (or a test's adapter), shared by the whole file.
 */
import { describe, expect, it, vi } from "vitest"
import Credentials, { type CredentialsRateLimit } from "../../src/providers/credentials.js"
import type { AuthConfig, CounterReading, CounterStore } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

let sequence = 0
/** A name no other test uses. */
const unique = (name: string) => `${name}-${++sequence}-${Date.now().toString(36)}`
/** An IPv4 address no other test uses (TEST-NET-3 and beyond, by sequence). */
const newAddress = () => {
  const n = ++sequence
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

const PASSWORD = "correct horse battery staple"

interface Site {
  config: AuthConfig
  /** Every username `authorize` was called with, in order. */
  calls: string[]
  /** The account that signs in with PASSWORD. */
  owner: string
  logs: string[]
}

/** A site whose one account (`owner`) signs in with PASSWORD; every call of authorize is kept. */
function site(rateLimit?: CredentialsRateLimit | false, overrides: Partial<AuthConfig> = {}): Site {
  const owner = unique("owner")
  const calls: string[] = []
  const logs: string[] = []
  const config = testConfig({
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { type: "password" } },
        authorize: ({ username, password }) => {
          calls.push(String(username))
          return String(username).trim().toLowerCase() === owner && password === PASSWORD
            ? { id: owner, name: owner, email: `${owner}@example.com` }
            : null
        },
        ...(rateLimit === undefined ? {} : { rateLimit }),
      }),
    ],
    debug: true,
    logger: {
      error: (error) => logs.push(`error ${error.name}: ${error.message} ${String(error.cause)}`),
      warn: (code) => logs.push(`warn ${code}`),
      debug: (message, metadata) => logs.push(`debug ${message} ${JSON.stringify(metadata)}`),
    },
    ...overrides,
  })
  return { config, calls, owner, logs }
}

/** A browser at `address` (as the platform reports it). */
function browserAt(config: AuthConfig, address?: string): Browser {
  const browser = new Browser(config)
  browser.clientAddress = address
  return browser
}

/** One credentials attempt: the CSRF round trip, then the POST. */
async function attempt(
  browser: Browser,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/callback/credentials", {
    form: { csrfToken, username, password },
    headers,
  })
}

/** What a credentials answer says: signed in, or refused with which code (and Retry-After). */
function outcome(response: Response) {
  const location = new URL(response.headers.get("location") ?? "", ORIGIN)
  const retryAfter = response.headers.get("retry-after")
  return {
    status: response.status,
    signedIn: response.status === 302 && !location.searchParams.has("error"),
    error: location.searchParams.get("error"),
    code: location.searchParams.get("code"),
    retryAfter: retryAfter === null ? null : Number(retryAfter),
  }
}

describe("credentials rate limit: one address guessing one account", () => {
  it("refuses after 5 failures without calling authorize, for all of 1,000 attempts", async () => {
    const { config, calls, owner } = site()
    const attacker = browserAt(config, "203.0.113.7")
    const codes: (string | null)[] = []
    const retryAfters = new Set<number | null>()
    for (let i = 0; i < 1000; i++) {
      const result = outcome(await attempt(attacker, owner, `guess-${i}`))
      expect(result.status).toBe(302)
      expect(result.error).toBe("CredentialsSignin")
      codes.push(result.code)
      if (i >= 5) retryAfters.add(result.retryAfter)
    }
    // authorize saw the first 5 guesses only.
    expect(calls).toEqual(Array(5).fill(owner))
    expect(codes.slice(0, 5)).toEqual(Array(5).fill("credentials"))
    expect(new Set(codes.slice(5))).toEqual(new Set(["rate_limited"]))
    for (const seconds of retryAfters) {
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(seconds).toBeLessThanOrEqual(900)
    }
  })

  it("answers a refused password without Retry-After, and a rate-limited one with it", async () => {
    const { config, owner } = site({ perPair: 1 })
    const attacker = browserAt(config, newAddress())
    const first = await attempt(attacker, owner, "wrong")
    expect(outcome(first)).toMatchObject({ code: "credentials", retryAfter: null })
    const second = await attempt(attacker, owner, "wrong")
    expect(outcome(second).code).toBe("rate_limited")
    expect(second.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
    expect(second.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=rate_limited`,
    )
  })

  it("holds against 200 attempts sent at once: authorize runs at most 5 times", async () => {
    const { config, calls, owner } = site()
    const address = newAddress()
    const attacker = browserAt(config, address)
    const csrfToken = await attacker.csrfToken()
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        attacker.fetch("/auth/callback/credentials", {
          form: { csrfToken, username: owner, password: `parallel-${i}` },
        }),
      ),
    )
    expect(calls.length).toBeLessThanOrEqual(5)
    const codes = results.map((response) => outcome(response).code)
    expect(codes.filter((code) => code === "rate_limited")).toHaveLength(200 - calls.length)
  })

  it("counts spellings of one account together (case, spaces, fullwidth letters)", async () => {
    const { config, calls, owner } = site({ perPair: 3 })
    const attacker = browserAt(config, newAddress())
    const fullwidth = [...owner.toUpperCase()]
      .map((c) => (/[A-Z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join("")
    for (const spelling of [owner.toUpperCase(), `  ${owner} `, fullwidth, owner]) {
      await attempt(attacker, spelling, "wrong")
    }
    expect(calls).toHaveLength(3)
  })

  it("starts a pair's count again after a successful sign-in", async () => {
    const { config, calls, owner } = site({ perPair: 3 })
    const user = browserAt(config, newAddress())
    for (let i = 0; i < 2; i++) await attempt(user, owner, "typo")
    expect(outcome(await attempt(user, owner, PASSWORD)).signedIn).toBe(true)
    for (let i = 0; i < 3; i++) {
      expect(outcome(await attempt(user, owner, "typo")).code).toBe("credentials")
    }
    expect(outcome(await attempt(user, owner, PASSWORD)).code).toBe("rate_limited")
    expect(calls).toHaveLength(6)
  })

  it("counts attempts posted to /signin/<id> (which does the same as the callback) together", async () => {
    const { config, calls, owner } = site({ perPair: 4 })
    const attacker = browserAt(config, newAddress())
    const codes: (string | null)[] = []
    for (let i = 0; i < 8; i++) {
      const csrfToken = await attacker.csrfToken()
      const path = i % 2 ? "/auth/signin/credentials" : "/auth/callback/credentials"
      const response = await attacker.fetch(path, {
        form: { csrfToken, username: owner, password: `guess-${i}` },
      })
      codes.push(outcome(response).code)
    }
    expect(calls).toHaveLength(4)
    expect(codes.slice(4)).toEqual(Array(4).fill("rate_limited"))
  })

  it("answers the browser client's JSON ({ url }) with the code and Retry-After", async () => {
    const { config, owner } = site({ perPair: 1 })
    const attacker = browserAt(config, newAddress())
    await attempt(attacker, owner, "wrong")
    const response = await attempt(attacker, owner, "wrong", { "x-auth-return-redirect": "1" })
    expect(response.status).toBe(200)
    const { url } = (await response.json()) as { url: string }
    expect(url).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=rate_limited`)
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
  })
})

describe("credentials rate limit: the owner is not locked out", () => {
  it("lets the owner in from another address while an attacker is blocked (unknown pair)", async () => {
    const { config, calls, owner } = site()
    const attacker = browserAt(config, newAddress())
    for (let i = 0; i < 100; i++) await attempt(attacker, owner, `guess-${i}`)
    expect(outcome(await attempt(attacker, owner, PASSWORD)).code).toBe("rate_limited")

    // The owner, on a device never used before: the attacker's refused attempts added nothing
    // to the account's count.
    const newDevice = browserAt(config, newAddress())
    expect(outcome(await attempt(newDevice, owner, PASSWORD)).signedIn).toBe(true)
    expect((await newDevice.session())?.user?.name).toBe(owner)
    expect(calls).toHaveLength(6)
  })

  it("lets the owner in from a known address through a flood from many addresses", async () => {
    const { config, calls, owner } = site()
    // The owner signed in from home once.
    const home = newAddress()
    expect(outcome(await attempt(browserAt(config, home), owner, PASSWORD)).signedIn).toBe(true)

    // 40 addresses guess 5 times each: the account's limit (20) is long passed.
    const codes: (string | null)[] = []
    for (let a = 0; a < 40; a++) {
      const attacker = browserAt(config, newAddress())
      for (let i = 0; i < 5; i++) codes.push(outcome(await attempt(attacker, owner, "x")).code)
    }
    expect(codes.filter((code) => code === "credentials")).toHaveLength(20)
    expect(calls).toHaveLength(1 + 20)

    // A stranger's address (or the owner's new phone) is refused while the flood lasts…
    const stranger = browserAt(config, newAddress())
    const refused = outcome(await attempt(stranger, owner, PASSWORD))
    expect(refused.code).toBe("rate_limited")
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1)
    expect(calls).toHaveLength(21)

    // …but the known pair is exempt from the account's limit: the owner signs in at home.
    const atHome = browserAt(config, home)
    expect(outcome(await attempt(atHome, owner, PASSWORD)).signedIn).toBe(true)
    expect((await atHome.session())?.user?.name).toBe(owner)
  })

  it("never lifts a known pair's own limit", async () => {
    const { config, calls, owner } = site({ perPair: 3 })
    const home = browserAt(config, newAddress())
    expect(outcome(await attempt(home, owner, PASSWORD)).signedIn).toBe(true)
    // Someone at the same address (a shared network) guessing: the pair's limit holds.
    for (let i = 0; i < 10; i++) await attempt(home, owner, `guess-${i}`)
    expect(calls).toHaveLength(1 + 3)
    expect(outcome(await attempt(home, owner, PASSWORD)).code).toBe("rate_limited")
  })

  it("limits a spray of many accounts from one address, known pairs there excepted", async () => {
    const { config, calls, owner } = site({ perClient: 10 })
    const office = newAddress()
    // A colleague of the attacker's signed in from the office before.
    expect(outcome(await attempt(browserAt(config, office), owner, PASSWORD)).signedIn).toBe(true)
    const attacker = browserAt(config, office)
    const codes: (string | null)[] = []
    const sprayed = unique("user")
    for (let i = 0; i < 30; i++) {
      codes.push(outcome(await attempt(attacker, `${sprayed}-${i}`, "123456")).code)
    }
    expect(codes.filter((code) => code === "credentials")).toHaveLength(10)
    expect(codes.slice(10)).toEqual(Array(20).fill("rate_limited"))
    expect(calls).toHaveLength(1 + 10)
    // A stranger from the office is refused; the known colleague is not.
    expect(outcome(await attempt(browserAt(config, office), unique("newcomer"), "pw")).code).toBe(
      "rate_limited",
    )
    expect(outcome(await attempt(browserAt(config, office), owner, PASSWORD)).signedIn).toBe(true)
  })
})

describe("credentials rate limit: the client address", () => {
  it("comes from the platform only: a forged X-Forwarded-For neither resets nor escapes it", async () => {
    const { config, calls, owner } = site({ perClient: 8 })
    const attacker = browserAt(config, newAddress())
    const codes: (string | null)[] = []
    for (let i = 0; i < 40; i++) {
      // A new account and a new "address" of the attacker's choosing on every attempt.
      const forged = `198.51.100.${i}, 192.0.2.${i}`
      const response = await attempt(attacker, `sprayed-${owner}-${i}`, "123456", {
        "x-forwarded-for": forged,
        "x-real-ip": `192.0.2.${i}`,
        forwarded: `for=192.0.2.${i}`,
      })
      codes.push(outcome(response).code)
    }
    expect(calls).toHaveLength(8)
    expect(codes.slice(8)).toEqual(Array(32).fill("rate_limited"))
    // And for one account: forged headers do not make new pairs either.
    const { config: other, calls: otherCalls, owner: target } = site()
    const guesser = browserAt(other, newAddress())
    for (let i = 0; i < 20; i++) {
      await attempt(guesser, target, `guess-${i}`, { "x-forwarded-for": `198.51.100.${i}` })
    }
    expect(otherCalls).toHaveLength(5)
  })

  it("counts every address of an IPv6 /64 as one client, and ::ffff:a.b.c.d as a.b.c.d", async () => {
    const { config, calls, owner } = site()
    for (let i = 0; i < 12; i++) {
      await attempt(browserAt(config, `2001:db8:1:2::${(i + 1).toString(16)}`), owner, "x")
    }
    expect(calls).toHaveLength(5)

    const { config: v4, calls: v4Calls, owner: v4Owner } = site()
    const address = newAddress()
    for (let i = 0; i < 6; i++) {
      await attempt(browserAt(v4, i % 2 ? address : `::ffff:${address}`), v4Owner, "x")
    }
    expect(v4Calls).toHaveLength(5)
  })

  it("without a client address, applies the account's limit alone", async () => {
    const { config, calls, owner } = site({ perIdentifier: 4 })
    const anywhere = browserAt(config, undefined)
    for (let i = 0; i < 10; i++) await attempt(anywhere, owner, `guess-${i}`)
    expect(calls).toHaveLength(4)
    expect(outcome(await attempt(anywhere, owner, PASSWORD)).code).toBe("rate_limited")
  })

  it("without an account name in the form, applies the address's limit alone", async () => {
    const { config, calls } = site({ perClient: 3 })
    const attacker = browserAt(config, newAddress())
    for (let i = 0; i < 6; i++) {
      const csrfToken = await attacker.csrfToken()
      await attacker.fetch("/auth/callback/credentials", { form: { csrfToken, password: "x" } })
    }
    expect(calls).toHaveLength(3)
  })
})

describe("credentials rate limit: options", () => {
  it("is off with rateLimit: false, provider by provider", async () => {
    const open = site(false)
    const guarded = site()
    const config = { ...open.config, providers: [...open.config.providers] }
    config.providers.push({ ...(guarded.config.providers[0] as object), id: "guarded" } as never)
    const attacker = browserAt(config, newAddress())
    for (let i = 0; i < 100; i++) {
      expect(outcome(await attempt(attacker, open.owner, `guess-${i}`)).code).toBe("credentials")
      const csrfToken = await attacker.csrfToken()
      await attacker.fetch("/auth/callback/guarded", {
        form: { csrfToken, username: guarded.owner, password: `guess-${i}` },
      })
    }
    expect(open.calls).toHaveLength(100)
    expect(outcome(await attempt(attacker, open.owner, PASSWORD)).signedIn).toBe(true)
    // The other provider of the same configuration keeps its limit.
    expect(guarded.calls).toHaveLength(5)
  })

  it("opens again when the window ends", async () => {
    const { config, calls, owner } = site({ window: 1, perPair: 2 })
    const attacker = browserAt(config, newAddress())
    await attempt(attacker, owner, "a")
    await attempt(attacker, owner, "b")
    const refused = outcome(await attempt(attacker, owner, "c"))
    expect(refused.code).toBe("rate_limited")
    expect(refused.retryAfter).toBe(1)
    expect(calls).toHaveLength(2)
    await new Promise((resolve) => setTimeout(resolve, refused.retryAfter! * 1000 + 50))
    expect(outcome(await attempt(attacker, owner, "d")).code).toBe("credentials")
    expect(outcome(await attempt(attacker, owner, PASSWORD)).signedIn).toBe(true)
    expect(calls).toHaveLength(4)
  })

  it("counts by the field `identifier` names, or the first declared field that is not a password", async () => {
    const login = unique("someone")
    const calls: unknown[] = []
    const provider = (rateLimit?: CredentialsRateLimit) =>
      Credentials({
        credentials: { pin: { type: "password" }, login: { type: "text" } },
        authorize: (credentials) => {
          calls.push(credentials.login)
          return null
        },
        rateLimit: { perPair: 2, ...rateLimit },
      })
    // `login` is declared first after the password: it names the account, not `email`.
    const declared = browserAt(testConfig({ providers: [provider()] }), newAddress())
    for (const spelling of [login, login.toUpperCase(), ` ${login}`]) {
      const csrfToken = await declared.csrfToken()
      await declared.fetch("/auth/callback/credentials", {
        form: { csrfToken, login: spelling, pin: "0000", email: unique("noise") },
      })
    }
    expect(calls).toHaveLength(2)

    calls.length = 0
    const named = browserAt(
      testConfig({ providers: [provider({ identifier: "account" })] }),
      newAddress(),
    )
    for (let i = 0; i < 3; i++) {
      const csrfToken = await named.csrfToken()
      await named.fetch("/auth/callback/credentials", {
        form: { csrfToken, account: login, login: unique("other"), email: unique("other") },
      })
    }
    expect(calls).toHaveLength(2)
  })

  it.each([
    ["a zero window", { window: 0 }],
    ["a fractional limit", { perPair: 2.5 }],
    ["a negative limit", { perClient: -1 }],
    ["an empty identifier", { identifier: "" }],
  ])("refuses %s with the Configuration error page, never a 500", async (_case, rateLimit) => {
    const { config, calls, logs } = site(rateLimit as CredentialsRateLimit)
    const response = await attempt(browserAt(config, newAddress()), "someone", "pw")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(calls).toHaveLength(0)
    expect(logs.join("\n")).toMatch(
      /InvalidProvider: The credentials provider "credentials" has a rateLimit/,
    )
  })
})

describe("credentials rate limit: logs", () => {
  it("warns with a code when a limit is reached, and never logs the account, password or address", async () => {
    const { config, logs, owner } = site()
    const address = "198.18.7.42"
    const attacker = browserAt(config, address)
    for (let i = 0; i < 30; i++) await attempt(attacker, owner, `hunter2-${i}`)
    await attempt(browserAt(config, newAddress()), owner, PASSWORD)
    const text = logs.join("\n")
    // One warning: the pair limit tripped once in this window.
    expect(logs.filter((line) => line === "warn credentials-rate-limited")).toHaveLength(1)
    expect(text).toContain("rate limit")
    expect(text).not.toContain(owner)
    expect(text).not.toContain(owner.split("-")[0]!)
    expect(text).not.toContain("hunter2")
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(address)
    expect(text).not.toContain("198.18")
  })
})

describe("credentials rate limit: where the counters live", () => {
  it("keeps a few counters per pair and window, not one per sign-in", async () => {
    const adapter = memoryAdapter()
    const { config, owner } = site(undefined, { adapter, session: { strategy: "jwt" } })
    const user = browserAt(config, newAddress())
    for (let i = 0; i < 30; i++) {
      expect(outcome(await attempt(user, owner, PASSWORD)).signedIn).toBe(true)
    }
    const keys = [...adapter.counters.keys()].filter((key) => key.startsWith("credentials:"))
    // The pair's attempts and successes, the address's and the account's (each with its
    // successes, counted at the first sign-in only), the known mark: no key per sign-in.
    expect(keys.length).toBeLessThanOrEqual(7)
  })

  it("costs a returning user's sign-in two counter operations, and no read", async () => {
    const operations: string[] = []
    const counters = new Map<string, CounterReading>()
    const store: CounterStore = {
      increment(key, expires) {
        operations.push(`increment ${key.split(":")[1]}${key.endsWith(":ok") ? " ok" : ""}`)
        const current = counters.get(key)
        if (!current) counters.set(key, { count: 1, expires })
        return current ? ++current.count : 1
      },
      get(key) {
        operations.push(`get ${key.split(":")[1]}`)
        return counters.get(key) ?? null
      },
    }
    const { config, owner } = site(undefined, { counterStore: store })
    const user = browserAt(config, newAddress())
    expect(outcome(await attempt(user, owner, PASSWORD)).signedIn).toBe(true)
    operations.length = 0
    for (let i = 0; i < 12; i++) {
      expect(outcome(await attempt(user, owner, PASSWORD)).signedIn).toBe(true)
    }
    // The pair's attempt and its success, nothing else: its successes seen by this process
    // account for every attempt past the limit, so none is read.
    expect(operations).toEqual(
      Array.from({ length: 12 }, () => ["increment pair", "increment pair ok"]).flat(),
    )
  })

  it("holds across instances that remember different things (two module instances, one store)", async () => {
    const counters = new Map<string, CounterReading>()
    const store: CounterStore = {
      increment(key, expires) {
        const current = counters.get(key)
        if (!current) counters.set(key, { count: 1, expires })
        return current ? ++current.count : 1
      },
      get: (key) => counters.get(key) ?? null,
    }
    const { config, calls, owner } = site({ perPair: 3 }, { counterStore: store })
    const address = newAddress()
    vi.resetModules()
    const other = (await import("../../src/index.js")).Auth
    const one = browserAt(config, address)
    const two = browserAt(config, address)
    two.auth = other
    // Instance one sees many successes of the pair; instance two's failures still count there.
    for (let i = 0; i < 6; i++) {
      expect(outcome(await attempt(one, owner, PASSWORD)).signedIn).toBe(true)
    }
    for (let i = 0; i < 3; i++) {
      expect(outcome(await attempt(two, owner, "typo")).code).toBe("credentials")
    }
    expect(outcome(await attempt(one, owner, "typo")).code).toBe("rate_limited")
    expect(outcome(await attempt(two, owner, "typo")).code).toBe("rate_limited")
    calls.length = 0
    // A success on one instance starts the pair's count again on both, once the window that
    // refused it ends — here: a new pair count after one failure and a success.
    const fresh = newAddress()
    const three = browserAt(config, fresh)
    const four = browserAt(config, fresh)
    four.auth = other
    for (let i = 0; i < 2; i++) await attempt(three, owner, "typo")
    expect(outcome(await attempt(four, owner, PASSWORD)).signedIn).toBe(true)
    for (let i = 0; i < 3; i++) {
      expect(outcome(await attempt(three, owner, "typo")).code).toBe("credentials")
    }
    expect(outcome(await attempt(four, owner, "typo")).code).toBe("rate_limited")
    expect(outcome(await attempt(three, owner, PASSWORD)).code).toBe("rate_limited")
    expect(calls).toHaveLength(6)
  })

  it("in the adapter (incrementCounter, getCounter), under keys that reveal nothing", async () => {
    const adapter = memoryAdapter()
    const { config, calls, owner } = site(undefined, {
      adapter,
      session: { strategy: "jwt" },
    })
    const address = newAddress()
    const attacker = browserAt(config, address)
    for (let i = 0; i < 8; i++) await attempt(attacker, owner, "x")
    expect(calls).toHaveLength(5)
    const keys = [...adapter.counters.keys()].filter((key) => key.startsWith("credentials:"))
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      expect(key).toMatch(
        /^credentials:(pair|client|identifier|known):([0-9a-f]{32}|[0-9a-f]{64})(:[0-9]+)(:ok)?$/,
      )
      expect(key).not.toContain(owner)
      expect(key).not.toContain(address)
    }
    // Another configuration object on the same adapter (another instance) counts along.
    const instance = { ...config }
    expect(outcome(await attempt(browserAt(instance, address), owner, PASSWORD)).code).toBe(
      "rate_limited",
    )
  })

  it("in memory, with one memory-rate-limit warning, when the adapter cannot read a counter", async () => {
    const adapter = memoryAdapter()
    delete adapter.getCounter
    const { config, calls, owner, logs } = site(undefined, {
      adapter,
      session: { strategy: "jwt" },
    })
    const attacker = browserAt(config, newAddress())
    for (let i = 0; i < 8; i++) await attempt(attacker, owner, "x")
    expect(calls).toHaveLength(5)
    expect([...adapter.counters.keys()].some((key) => key.startsWith("credentials:"))).toBe(false)
    expect(logs.filter((line) => line === "warn memory-rate-limit")).toHaveLength(1)
  })

  it("in the counterStore when one is configured", async () => {
    const counters = new Map<string, CounterReading>()
    const store: CounterStore = {
      increment(key, expires) {
        const current = counters.get(key)
        if (!current || current.expires.getTime() <= Date.now()) {
          counters.set(key, { count: 1, expires })
          return 1
        }
        return ++current.count
      },
      get: (key) => counters.get(key) ?? null,
    }
    const adapter = memoryAdapter()
    const { config, calls, owner } = site(undefined, {
      adapter,
      counterStore: store,
      session: { strategy: "jwt" },
    })
    const attacker = browserAt(config, newAddress())
    for (let i = 0; i < 8; i++) await attempt(attacker, owner, "x")
    expect(calls).toHaveLength(5)
    expect([...counters.keys()].some((key) => key.startsWith("credentials:pair:"))).toBe(true)
    expect(adapter.counters.size).toBe(0)
  })

  it("refuses a counterStore that cannot read, at the first request", async () => {
    const { config } = site(undefined, {
      counterStore: { increment: () => 1 } as unknown as CounterStore,
    })
    const response = await browserAt(config, newAddress()).fetch("/auth/session")
    expect(response.status).toBe(500)
    expect(((await response.json()) as { message: string }).message).toMatch(
      /counterStore lacks get/,
    )
  })
})
