/**
 * Password hashes: format and parameters, verification in both directions, parameter upgrades,
 * normalization, hashes that are not ours, and the work done for unknown accounts.
 */
import { describe, expect, it } from "vitest"
import { burnOne, DEFAULT_SCRYPT, hashPassword, verifyPassword } from "../../src/password/hash.js"

/** Cheap parameters for the tests; the defaults' cost is checked once. */
const FAST = { ln: 10, r: 8, p: 1 }
const FASTER = { ln: 11, r: 8, p: 1 }

describe("hashPassword", () => {
  it("uses OWASP's scrypt parameters by default and names them in the hash", async () => {
    expect(DEFAULT_SCRYPT).toEqual({ ln: 17, r: 8, p: 1 })
    const hash = await hashPassword("correct horse battery staple")
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(await verifyPassword("correct horse battery staple", hash)).toEqual({
      ok: true,
      needsRehash: false,
    })
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
  it("spends about the work of a real check, with the same parameters", async () => {
    const params = { ln: 14, r: 8, p: 1 }
    const hash = await hashPassword("wonderland", params)
    await burnOne("warm", params) // the dummy hash is made once
    const time = async (run: () => Promise<unknown>) => {
      const started = performance.now()
      for (let i = 0; i < 5; i++) await run()
      return performance.now() - started
    }
    const real = await time(() => verifyPassword("wrong", hash, params))
    const burnt = await time(() => burnOne("wrong", params))
    // Same work: within a factor of two either way on a busy machine (the timing test of
    // sign-ins measures indistinguishability properly).
    expect(burnt / real).toBeGreaterThan(0.5)
    expect(burnt / real).toBeLessThan(2)
  })
})
