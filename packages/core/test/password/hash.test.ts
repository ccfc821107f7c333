/**
 * Password hashes: format and parameters, the memory a derivation takes, verification in both
 * directions, parameter upgrades (from the 128 MiB default of earlier versions too),
 * normalization, hashes that are not ours, and the work done for unknown accounts.
 */
import { scrypt } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import {
  burnOne,
  DEFAULT_SCRYPT,
  hashPassword,
  isBoundedScrypt,
  scryptMemory,
  verifyPassword,
} from "../../src/password/hash.js"
import { processLimiter } from "../../src/password/limiter.js"

/** Cheap parameters for the tests; the defaults' cost is checked once. */
const FAST = { ln: 10, r: 8, p: 1 }
const FASTER = { ln: 11, r: 8, p: 1 }

/**
 * A hash made by the previous default (N = 2^17, r = 8, p = 1: 128 MiB), by Latch's own
 * `hashPassword` before the default changed, of "correct horse battery staple".
 */
const OLD_DEFAULT_HASH =
  "$scrypt$ln=17,r=8,p=1$nWw+lksIjkt2Lqiz/biT9A$T4a0kb0qEeXax0nAXsvUeJA0yvY33KgbhTcNqDzuIeA"

const MiB = 2 ** 20

/** Node's scrypt with an explicit `maxmem`: whether OpenSSL accepts it (it throws if not). */
const derivesWithin = (params: { ln: number; r: number; p: number }, maxmem: number) =>
  new Promise<boolean>((resolve, reject) =>
    scrypt("x", "salt", 32, { N: 2 ** params.ln, r: params.r, p: params.p, maxmem }, (error) =>
      error ? reject(error) : resolve(true),
    ),
  ).catch((error: Error) => {
    if (/memory limit exceeded/.test(error.message)) return false
    throw error
  })

describe("the default parameters", () => {
  it("are OWASP's row of equal strength to N=2^17, r=8, p=1 that fits in 32 MiB", () => {
    // OWASP Password Storage Cheat Sheet, scrypt: N=2^17 r=8 p=1 ≈ N=2^16 r=8 p=2 ≈
    // N=2^15 r=8 p=3 ≈ N=2^14 r=8 p=5 ≈ N=2^13 r=8 p=10.
    expect(DEFAULT_SCRYPT).toEqual({ ln: 15, r: 8, p: 3 })
    expect(128 * 2 ** DEFAULT_SCRYPT.ln * DEFAULT_SCRYPT.r).toBe(32 * MiB)
    // p runs serially: the old default needed four times the memory for the same strength.
    expect(scryptMemory({ ln: 17, r: 8, p: 1 }) / scryptMemory(DEFAULT_SCRYPT)).toBeGreaterThan(
      3.99,
    )
    expect(scryptMemory(DEFAULT_SCRYPT)).toBeLessThan(32 * MiB + 8 * 1024)
  })

  it("count a derivation's memory as OpenSSL does: exactly enough, a byte less refused", async () => {
    for (const params of [DEFAULT_SCRYPT, { ln: 14, r: 8, p: 5 }, { ln: 12, r: 4, p: 2 }]) {
      const bytes = scryptMemory(params)
      expect(await derivesWithin(params, bytes), JSON.stringify(params)).toBe(true)
      expect(await derivesWithin(params, bytes - 1), JSON.stringify(params)).toBe(false)
    }
    // Node's default `maxmem` (32 MiB) is just short of the defaults: hash.ts must pass its own.
    expect(await derivesWithin(DEFAULT_SCRYPT, 32 * MiB)).toBe(false)
  })
})

describe("hashPassword", () => {
  it("uses the default parameters and names them in the hash", async () => {
    const hash = await hashPassword("correct horse battery staple")
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(await verifyPassword("correct horse battery staple", hash)).toEqual({
      ok: true,
      needsRehash: false,
    })
  })

  it("derives through the process's limiter, refused before any work when it is full", async () => {
    const limiter = processLimiter()
    const before = limiter.stats().started
    await hashPassword("counted", FAST)
    expect(limiter.stats().started).toBe(before + 1)
    // One slot, no queue: while one derivation runs, the next is refused and never starts.
    const limits = { concurrency: 1, queue: 0 }
    const running = hashPassword("slow", { ln: 14, r: 8, p: 4 }, { limits })
    const stored = await hashPassword("stored", FAST) // the default limits: a slot left
    await expect(hashPassword("refused", FAST, { limits })).rejects.toMatchObject({
      name: "HashingBusy",
    })
    await expect(verifyPassword("stored", stored, FAST, { limits })).rejects.toMatchObject({
      name: "HashingBusy",
    })
    await expect(burnOne("refused", FAST, { limits })).rejects.toMatchObject({
      name: "HashingBusy",
    })
    await running
    expect(limiter.stats().started).toBe(before + 3)
  })

  it("salts every hash: the same password twice makes two hashes", async () => {
    const [a, b] = await Promise.all([hashPassword("same", FAST), hashPassword("same", FAST)])
    expect(a).not.toBe(b)
  })
})

describe("verifyPassword", () => {
  it("accepts the password and refuses any other", async () => {
    const hash = await hashPassword("wonderland", FAST)
    expect((await verifyPassword("wonderland", hash, FAST)).ok).toBe(true)
    for (const wrong of ["Wonderland", "wonderland ", "wonderlan", "", "wonderland\u0000"])
      expect((await verifyPassword(wrong, hash, FAST)).ok, JSON.stringify(wrong)).toBe(false)
  })

  it("says a hash made with other parameters should be made again, once the password matched", async () => {
    const old = await hashPassword("wonderland", FAST)
    expect(await verifyPassword("wonderland", old, FASTER)).toEqual({ ok: true, needsRehash: true })
    // A wrong password learns nothing about the parameters.
    expect(await verifyPassword("nope", old, FASTER)).toEqual({ ok: false, needsRehash: false })
    const upgraded = await hashPassword("wonderland", FASTER)
    expect(await verifyPassword("wonderland", upgraded, FASTER)).toEqual({
      ok: true,
      needsRehash: false,
    })
  })

  it(
    "verifies a hash of the old default (ln=17, 128 MiB) and says it should be made again",
    {
      timeout: 30_000,
    },
    async () => {
      expect(await verifyPassword("correct horse battery staple", OLD_DEFAULT_HASH)).toEqual({
        ok: true,
        needsRehash: true,
      })
      expect(await verifyPassword("correct horse battery stable", OLD_DEFAULT_HASH)).toEqual({
        ok: false,
        needsRehash: false,
      })
    },
  )

  it("treats a password typed composed or decomposed as the same (NFKC)", async () => {
    const composed = "caf\u00e9 cr\u00e8me"
    const decomposed = "cafe\u0301 cre\u0300me"
    const hash = await hashPassword(composed, FAST)
    expect((await verifyPassword(decomposed, hash, FAST)).ok).toBe(true)
    // Full-width letters are their ASCII selves under NFKC.
    const wide = await hashPassword("\uff41\uff42\uff43\uff44\uff45\uff46\uff47\uff48", FAST)
    expect((await verifyPassword("abcdefgh", wide, FAST)).ok).toBe(true)
  })

  it("never matches a hash that is not ours, a truncated one, or one with absurd parameters", async () => {
    const good = await hashPassword("wonderland", FAST)
    const broken = [
      "",
      "wonderland",
      "$2b$12$abcdefghijklmnopqrstuuY2VQzUxVFDw6dNMoVP7gLdHw1sZB4Yi", // bcrypt
      good.slice(0, -10),
      good.replace("ln=10", "ln=40"),
      good.replace("r=8", "r=0"),
      // 4 GiB (N = 2^22, r = 8): parameters the format allows, memory no hash of ours needs.
      good.replace("ln=10", "ln=22"),
      `${good}$extra`,
    ]
    for (const hash of broken)
      expect(await verifyPassword("wonderland", hash, FAST), hash).toEqual({
        ok: false,
        needsRehash: false,
      })
  })

  it("compares the derived key, not the string: a hash with a flipped key byte fails", async () => {
    const hash = await hashPassword("wonderland", FAST)
    const key = hash.slice(hash.lastIndexOf("$") + 1)
    const flipped = Buffer.from(key, "base64")
    flipped[0] = flipped[0]! ^ 1
    const tampered = `${hash.slice(0, hash.lastIndexOf("$") + 1)}${flipped.toString("base64").replace(/=+$/, "")}`
    expect((await verifyPassword("wonderland", tampered, FAST)).ok).toBe(false)
  })
})

describe("burnOne", () => {
  it("does the work of a real check: one scrypt derivation with the same parameters and length", async () => {
    // The work is the derivation's: the same N, r, p, key length and memory bound as a real
    // check of a stored hash, counted rather than timed (timings are bench/'s; the timing test
    // of sign-ins measures indistinguishability).
    const params = { ln: 12, r: 8, p: 2 }
    const hash = await hashPassword("wonderland", params)
    const derivations = vi.spyOn(process.getBuiltinModule("node:crypto"), "scrypt")
    try {
      await verifyPassword("wrong", hash, params)
      await burnOne("wrong", params)
      expect(derivations).toHaveBeenCalledTimes(2)
      const [real, burnt] = derivations.mock.calls.map(([, salt, length, options]) => ({
        salt: Buffer.from(salt as Uint8Array).length,
        length,
        options,
      }))
      expect(burnt).toEqual(real)
      expect(real!.options).toMatchObject({ N: 2 ** 12, r: 8, p: 2 })
    } finally {
      derivations.mockRestore()
    }
  })
})

describe("isBoundedScrypt", () => {
  it.each([
    [{ ln: 15, r: 8, p: 3 }, true],
    [{ ln: 17, r: 8, p: 1 }, true],
    [{ ln: 18, r: 8, p: 1 }, true], // 256 MiB: the most
    [{ ln: 19, r: 8, p: 1 }, false],
    [{ ln: 17, r: 32, p: 1 }, false],
    [{ ln: 9, r: 8, p: 1 }, false],
    [{ ln: 15, r: 8, p: 17 }, false],
    [{ ln: 15.5, r: 8, p: 1 }, false],
  ])("%j → %s", (params, bounded) => {
    expect(isBoundedScrypt(params)).toBe(bounded)
  })
})
