/**
 * Hashes of the old default (N = 2^17, r = 8, p = 1: 128 MiB) through `Auth()`: the account's
 * owner signs in with them, and the sign-in stores a hash of the new default in their place; a
 * wrong password changes nothing. When hashing is at capacity the sign-in still succeeds and the
 * upgrade waits for a later one.
 */
import { describe, expect, it } from "vitest"
import { hashPassword, verifyPassword } from "../../src/password/hash.js"
import { processLimiter } from "../../src/password/limiter.js"
import Password, { type PasswordOptions } from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, SECRET } from "../helpers/request.js"

/** Made by Latch's `hashPassword` with the old default, of "correct horse battery staple". */
const OLD_DEFAULT_HASH =
  "$scrypt$ln=17,r=8,p=1$nWw+lksIjkt2Lqiz/biT9A$T4a0kb0qEeXax0nAXsvUeJA0yvY33KgbhTcNqDzuIeA"
const PASSWORD = "correct horse battery staple"

async function setup(options: PasswordOptions = {}) {
  const adapter: MemoryAdapter = memoryAdapter()
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: "old@example.com",
    emailVerified: new Date("2025-01-01"),
  })
  adapter.passwords.set(user.id, OLD_DEFAULT_HASH)
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [Password(options)],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
  return { adapter, config, userId: user.id }
}

async function signIn(config: AuthConfig, password: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/callback/password", {
    form: { csrfToken, email: "old@example.com", password },
  })
  return { browser, location: new URL(response.headers.get("location")!) }
}

// Each test derives 128 MiB keys: a second or more on a busy machine.
describe("a hash of the old default", { timeout: 30_000 }, () => {
  it("signs its owner in, and is replaced by one of the new default", async () => {
    const { adapter, config, userId } = await setup()
    const { browser, location } = await signIn(config, PASSWORD)
    expect(location.searchParams.get("error")).toBeNull()
    expect((await browser.session())?.user?.email).toBe("old@example.com")
    const upgraded = adapter.passwords.get(userId)!
    expect(upgraded).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/)
    expect(await verifyPassword(PASSWORD, upgraded)).toEqual({ ok: true, needsRehash: false })
  })

  it("stays as it is after a wrong password", async () => {
    const { adapter, config, userId } = await setup()
    const { location } = await signIn(config, "correct horse battery stable")
    expect(location.searchParams.get("code")).toBe("credentials")
    expect(adapter.passwords.get(userId)).toBe(OLD_DEFAULT_HASH)
  })

  it("stays until a later sign-in when hashing is at capacity: the sign-in goes on", async () => {
    // One slot and a queue of one for this provider's derivations.
    const { adapter, config, userId } = await setup({ hashing: { concurrency: 1, queue: 1 } })
    const limiter = processLimiter()
    const signingIn = signIn(config, PASSWORD)
    // While the check runs, two derivations of a configuration with a longer queue wait: when
    // the check ends, one takes the slot and one still waits, so the rehash (which follows the
    // check within the same turn of the event loop) finds this provider's queue full.
    while (limiter.stats().active === 0) await new Promise((resolve) => setImmediate(resolve))
    const others = { limits: { concurrency: 1, queue: 8 } }
    const blockers = [1, 2].map((n) => hashPassword(`blocker ${n}`, { ln: 10, r: 8, p: 1 }, others))
    expect(limiter.stats().waiting.account).toBe(2)
    const refusedBefore = limiter.stats().refused
    const { browser, location } = await signingIn
    expect(location.searchParams.get("error")).toBeNull()
    expect((await browser.session())?.user?.email).toBe("old@example.com")
    expect(limiter.stats().refused).toBe(refusedBefore + 1)
    expect(adapter.passwords.get(userId)).toBe(OLD_DEFAULT_HASH)
    await Promise.all(blockers)
    // The next sign-in upgrades it.
    await signIn(config, PASSWORD)
    expect(adapter.passwords.get(userId)).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/)
  })
})
