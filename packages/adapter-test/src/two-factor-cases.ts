/**
 * The cases of the two-factor methods (`getTwoFactor`, `setTwoFactor`, `deleteTwoFactor`,
 * `setRecoveryCodes`, `useRecoveryCode`), for the adapters that store second factors. The adapter
 * keeps the secret and the recovery code hashes as opaque strings: core seals, hashes and checks
 * them. An adapter without these methods skips the cases (with vitest; other runners see them
 * pass); one with only some of them fails, since two-factor authentication needs all five.
 */
import type { DefineCase, Full } from "./case.js"
import { newRecoveryCodeHashes, newTwoFactor, newUser, randomId } from "./fixtures.js"
import type { TestApi } from "./test-api.js"

const twoFactorMethods = [
  "getTwoFactor",
  "setTwoFactor",
  "deleteTwoFactor",
  "setRecoveryCodes",
  "useRecoveryCode",
] as const

export function defineTwoFactorCases(t: TestApi, it: DefineCase): void {
  const { expect } = t
  const storesTwoFactor = (a: Full, skip: (why: string) => void) => {
    const missing = twoFactorMethods.filter((method) => typeof a[method] !== "function")
    if (missing.length === 0) return true
    if (missing.length === twoFactorMethods.length) {
      skip("the adapter does not implement the two-factor methods")
      return false
    }
    throw new Error(`the adapter implements some two-factor methods but not ${missing.join(", ")}`)
  }
  /** Uses every code of `hashes`, and says which of them worked. */
  const useAll = async (a: Full, userId: string, hashes: string[]) => {
    const used: boolean[] = []
    for (const hash of hashes) used.push(await a.useRecoveryCode(userId, hash))
    return used
  }

  it("getTwoFactor of a user without a second factor, or of an unknown user, is null", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    expect(await a.getTwoFactor(user.id)).toBeNull()
    expect(await a.getTwoFactor(randomId("nobody"))).toBeNull()
  })

  it("setTwoFactor stores the factor as given; getTwoFactor returns it with its Date", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const twoFactor = newTwoFactor(user.id)
    await a.setTwoFactor(twoFactor)
    const found = await a.getTwoFactor(user.id)
    expect(found).toEqual(twoFactor)
    expect(found!.enabledAt).toBeInstanceOf(Date)
    // Another user's factor is theirs alone.
    expect(await a.getTwoFactor(other.id)).toBeNull()
    const theirs = newTwoFactor(other.id)
    await a.setTwoFactor(theirs)
    expect(await a.getTwoFactor(user.id)).toEqual(twoFactor)
    expect(await a.getTwoFactor(other.id)).toEqual(theirs)
  })

  it("setTwoFactor again replaces the factor (one per user)", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    await a.setTwoFactor(newTwoFactor(user.id))
    const replacement = newTwoFactor(user.id, { enabledAt: new Date() })
    await a.setTwoFactor(replacement)
    expect(await a.getTwoFactor(user.id)).toEqual(replacement)
    // Only one to remove.
    expect(await a.deleteTwoFactor(user.id)).toBe(true)
    expect(await a.getTwoFactor(user.id)).toBeNull()
  })

  it("deleteTwoFactor removes the factor and the user's recovery codes: true, then false", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const hashes = newRecoveryCodeHashes()
    const theirs = newTwoFactor(other.id)
    const theirHashes = newRecoveryCodeHashes(2)
    await a.setTwoFactor(newTwoFactor(user.id))
    await a.setRecoveryCodes(user.id, hashes)
    await a.setTwoFactor(theirs)
    await a.setRecoveryCodes(other.id, theirHashes)

    expect(await a.deleteTwoFactor(user.id)).toBe(true)
    expect(await a.getTwoFactor(user.id)).toBeNull()
    expect(await useAll(a, user.id, hashes)).toEqual(hashes.map(() => false))
    expect(await a.deleteTwoFactor(user.id)).toBe(false)
    expect(await a.deleteTwoFactor(randomId("nobody"))).toBe(false)
    // The user stays, and so do everyone else's factor and codes.
    expect(await a.getUser(user.id)).toEqual(user)
    expect(await a.getTwoFactor(other.id)).toEqual(theirs)
    expect(await useAll(a, other.id, theirHashes)).toEqual([true, true])
  })

  it("useRecoveryCode uses each code once; an unknown code is false", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const hashes = newRecoveryCodeHashes()
    await a.setRecoveryCodes(user.id, hashes)

    expect(await a.useRecoveryCode(user.id, hashes[0]!)).toBe(true)
    expect(await a.useRecoveryCode(user.id, hashes[0]!)).toBe(false)
    expect(await a.useRecoveryCode(user.id, newRecoveryCodeHashes(1)[0]!)).toBe(false)
    // The others are still there, once each.
    expect(await useAll(a, user.id, hashes.slice(1))).toEqual(hashes.slice(1).map(() => true))
    expect(await useAll(a, user.id, hashes)).toEqual(hashes.map(() => false))
  })

  it("setRecoveryCodes replaces the whole set; an empty set clears it", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const first = newRecoveryCodeHashes()
    await a.setRecoveryCodes(user.id, first)
    expect(await a.useRecoveryCode(user.id, first[0]!)).toBe(true)

    const second = newRecoveryCodeHashes()
    await a.setRecoveryCodes(user.id, second)
    // The old codes stop working, used or not.
    expect(await useAll(a, user.id, first)).toEqual(first.map(() => false))
    expect(await a.useRecoveryCode(user.id, second[0]!)).toBe(true)

    await a.setRecoveryCodes(user.id, [])
    expect(await useAll(a, user.id, second)).toEqual(second.map(() => false))
  })

  it("useRecoveryCode of another user's code is false and leaves the code to them", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const theirs = newRecoveryCodeHashes(3)
    await a.setRecoveryCodes(user.id, newRecoveryCodeHashes())
    await a.setRecoveryCodes(other.id, theirs)

    expect(await useAll(a, user.id, theirs)).toEqual([false, false, false])
    expect(await a.useRecoveryCode(randomId("nobody"), theirs[0]!)).toBe(false)
    expect(await useAll(a, other.id, theirs)).toEqual([true, true, true])
  })

  it("of 10 concurrent useRecoveryCode calls with one code, exactly one is true", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const hashes = newRecoveryCodeHashes()
    await a.setRecoveryCodes(user.id, hashes)
    const results = await Promise.all(
      Array.from({ length: 10 }, () => a.useRecoveryCode(user.id, hashes[0]!)),
    )
    expect(results.filter((result) => result === true)).toEqual([true])
    expect(results.filter((result) => result === false)).toHaveLength(9)
    // The other codes were not touched.
    expect(await a.useRecoveryCode(user.id, hashes[1]!)).toBe(true)
  })

  it("deleteUser removes the user's second factor and recovery codes", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const hashes = newRecoveryCodeHashes()
    await a.setTwoFactor(newTwoFactor(user.id))
    await a.setRecoveryCodes(user.id, hashes)
    await a.deleteUser(user.id)
    expect(await a.getTwoFactor(user.id)).toBeNull()
    expect(await a.deleteTwoFactor(user.id)).toBe(false)
    expect(await useAll(a, user.id, hashes)).toEqual(hashes.map(() => false))
  })

  it("setTwoFactor and setRecoveryCodes of an unknown user leave nothing behind", async (a, skip) => {
    if (!storesTwoFactor(a, skip)) return
    // A factor or codes nobody owns would belong to whoever later got that id.
    const id = randomId("nobody")
    const hashes = newRecoveryCodeHashes(2)
    try {
      await a.setTwoFactor(newTwoFactor(id))
    } catch {
      // Rejecting is fine too: the type has no "not found" value.
    }
    try {
      await a.setRecoveryCodes(id, hashes)
    } catch {
      // Likewise.
    }
    expect(await a.getTwoFactor(id)).toBeNull()
    expect(await useAll(a, id, hashes)).toEqual([false, false])
  })
}
