/**
 * Signing in with the Password provider, through `Auth()`, on both session strategies: the
 * adapter's hash checked, unknown addresses and wrong passwords refused alike, unverified
 * accounts held back by default, hashes made again when the parameters change, the rate limits
 * of credentials applied, and the database's failures kept apart from refusals.
 */
import { describe, expect, it, vi } from "vitest"
import { hashPassword } from "../../src/password/hash.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, SECRET } from "../helpers/request.js"

/** Cheap scrypt parameters for tests (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }

async function setup(
  options: {
    strategy?: "jwt" | "database"
    verified?: boolean
    scrypt?: typeof FAST
    provider?: Parameters<typeof Password>[0]
  } = {},
) {
  const adapter = memoryAdapter()
  adapter.createUser!({
    id: "u1",
    email: "alice@example.com",
    name: "Alice",
    emailVerified: options.verified === false ? null : new Date("2026-01-01"),
  })
  adapter.passwords.set("u1", await hashPassword("wonderland", FAST))
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database" },
    providers: [Password({ scrypt: options.scrypt ?? FAST, ...options.provider })],
    logger: { error: vi.fn(), warn: () => {}, debug: () => {} },
  }
  return { adapter, config }
}

async function signIn(config: AuthConfig, email: string, password: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/callback/password", {
    form: { csrfToken, email, password },
  })
  const location = new URL(response.headers.get("location")!)
  return { browser, response, location }
}

describe.each(["database", "jwt"] as const)("Password sign-in (%s sessions)", (strategy) => {
  it("signs in with the right password, the address in any case", async () => {
    const { config } = await setup({ strategy })
    const { browser, location } = await signIn(config, "  Alice@Example.COM ", "wonderland")
    expect(location.searchParams.get("error")).toBeNull()
    expect((await browser.session())?.user).toMatchObject({ email: "alice@example.com" })
  })

  it("refuses a wrong password and an unknown address with the same code", async () => {
    const { config } = await setup({ strategy })
    for (const [email, password] of [
      ["alice@example.com", "Wonderland"],
      ["nobody@example.com", "wonderland"],
      ["alice@example.com", ""],
      ["", "wonderland"],
      ["alice@example.com", "x".repeat(5000)],
    ]) {
      const { browser, location } = await signIn(config, email!, password!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("CredentialsSignin")
      expect(location.searchParams.get("code")).toBe("credentials")
      expect(await browser.session()).toBeNull()
    }
  })
})

describe("Password sign-in", () => {
  it("holds back an account whose address is not verified (unless told otherwise)", async () => {
    const { config } = await setup({ verified: false })
    const { browser, location } = await signIn(config, "alice@example.com", "wonderland")
    expect(location.searchParams.get("code")).toBe("unverified")
    expect(await browser.session()).toBeNull()
    // Only the right password learns that: a wrong one is refused as any other.
    const wrong = await signIn(config, "alice@example.com", "nope-nope")
    expect(wrong.location.searchParams.get("code")).toBe("credentials")

    const lenient = await setup({ verified: false, provider: { requireEmailVerification: false } })
    const allowed = await signIn(lenient.config, "alice@example.com", "wonderland")
    expect(allowed.location.searchParams.get("error")).toBeNull()
  })

  it("makes the hash again with the current parameters after a sign-in, not after a refusal", async () => {
    const stronger = { ln: 11, r: 8, p: 1 }
    const { adapter, config } = await setup({ scrypt: stronger })
    const before = adapter.passwords.get("u1")!
    await signIn(config, "alice@example.com", "not-it-at-all")
    expect(adapter.passwords.get("u1")).toBe(before)
    await signIn(config, "alice@example.com", "wonderland")
    const after = adapter.passwords.get("u1")!
    expect(after).toMatch(/^\$scrypt\$ln=11,r=8,p=1\$/)
    // And it still signs in.
    const again = await signIn(config, "alice@example.com", "wonderland")
    expect(again.location.searchParams.get("error")).toBeNull()
  })

  it("counts failures with the credentials rate limit, keyed by the address", async () => {
    // Five failures per account from everywhere (these requests carry no client address).
    const { config } = await setup({ provider: { rateLimit: { perIdentifier: 5 } } })
    const codes: (string | null)[] = []
    for (let i = 0; i < 6; i++)
      codes.push(
        (await signIn(config, "ALICE@example.com", `wrong-${i}`)).location.searchParams.get("code"),
      )
    expect(codes).toEqual([...Array(5).fill("credentials"), "rate_limited"])
  })

  it("answers a database failure as the database being down, not as a wrong password", async () => {
    const { adapter, config } = await setup()
    adapter.getPasswordHash = () => {
      throw new Error("connection refused")
    }
    const { location, response } = await signIn(config, "alice@example.com", "wonderland")
    expect(location.searchParams.get("code")).toBe("unavailable")
    expect(response.headers.get("retry-after")).toBe("5")
  })

  it("never looks up an address that is not one plain address", async () => {
    const { adapter, config } = await setup()
    const lookups: string[] = []
    const getUserByEmail = adapter.getUserByEmail!.bind(adapter)
    adapter.getUserByEmail = (email) => {
      lookups.push(email)
      return getUserByEmail(email)
    }
    for (const email of [
      "alice@example.com, mallory@evil.example",
      "alice@example.com\r\nBcc: mallory@evil.example",
      "alice@example.com\u0000",
      `${"a".repeat(5000)}@example.com`,
      "alice",
    ]) {
      const { location } = await signIn(config, email, "wonderland")
      expect(location.searchParams.get("code"), JSON.stringify(email)).toBe("credentials")
    }
    expect(lookups).toEqual([])
    await signIn(config, " Alice@Example.com ", "wonderland")
    expect(lookups).toEqual(["alice@example.com"])
  })

  it("names what the adapter lacks", async () => {
    const { adapter, config } = await setup()
    delete adapter.getPasswordHash
    const { location } = await signIn(config, "alice@example.com", "wonderland")
    expect(location.pathname).toBe("/auth/error")
    expect(config.logger!.error).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/getPasswordHash/) }),
    )
  })
})

describe("Password sign-in: an address without an account is not told apart", () => {
  /**
   * The same work on every path: one scrypt derivation with the same parameters, whether the
   * address has an account with a password, an account without one, or none. (The time each
   * takes is then scrypt's, which does not depend on the account; the lookups around it are
   * a fraction of a millisecond against its hundreds.)
   */
  it("derives one key with the same parameters for a wrong password, an account without a password, and no account", async () => {
    const { nodeCrypto } = await import("../../src/lib/node-crypto.js")
    const { adapter, config } = await setup()
    adapter.createUser!({ id: "u2", email: "bob@example.com", name: "Bob", emailVerified: null })
    // Every key derivation, recorded on its way to the real function.
    const original = nodeCrypto!.scrypt
    const seen: [number, number][] = []
    nodeCrypto!.scrypt = ((
      password: never,
      salt: never,
      length: number,
      options: { N: number },
      done: never,
    ) => {
      seen.push([length, options.N])
      return original(password, salt, length, options, done)
    }) as never
    try {
      // The dummy hash is made on the first unknown address: make it before counting.
      await signIn(config, "warm-up@example.com", "wonderland")
      const paths: Record<string, [string, string]> = {
        "wrong password": ["alice@example.com", "not-wonderland"],
        "account without a password": ["bob@example.com", "wonderland"],
        "no account": ["nobody@example.com", "wonderland"],
      }
      const work: Record<string, [number, number][]> = {}
      for (const [name, [email, password]] of Object.entries(paths)) {
        seen.length = 0
        const { location } = await signIn(config, email, password)
        expect(location.searchParams.get("code"), name).toBe("credentials")
        work[name] = [...seen]
      }
      expect(work).toEqual({
        "wrong password": [[32, 2 ** FAST.ln]],
        "account without a password": [[32, 2 ** FAST.ln]],
        "no account": [[32, 2 ** FAST.ln]],
      })
    } finally {
      nodeCrypto!.scrypt = original
    }
  })
})
