/**
 * The cases of the password methods (`getPasswordHash`, `setPasswordHash`,
 * `deletePasswordHash`), for the adapters that store passwords for the `Password` provider. The
 * adapter keeps the hash as an opaque string: core makes and checks it. An adapter without these
 * methods skips the cases (with vitest; other runners see them pass); one with only some of them
 * fails, since the provider needs all three.
 */
import type { DefineCase, Full } from "./case.js"
import { newPasswordHash, newUser, randomId } from "./fixtures.js"
import type { TestApi } from "./test-api.js"

const passwordMethods = ["getPasswordHash", "setPasswordHash", "deletePasswordHash"] as const

export function definePasswordCases(t: TestApi, it: DefineCase): void {
  const { expect } = t
  const storesPasswords = (a: Full, skip: (why: string) => void) => {
    const missing = passwordMethods.filter((method) => typeof a[method] !== "function")
    if (missing.length === 0) return true
    if (missing.length === passwordMethods.length) {
      skip("the adapter does not implement the password methods")
      return false
    }
    throw new Error(`the adapter implements some password methods but not ${missing.join(", ")}`)
  }

  it("getPasswordHash of a user without a password, or of an unknown user, is null", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    expect(await a.getPasswordHash(user.id)).toBeNull()
    expect(await a.getPasswordHash(randomId("nobody"))).toBeNull()
  })

  it("setPasswordHash stores the hash exactly as given; getPasswordHash returns it", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const hash = newPasswordHash()
    await a.setPasswordHash(user.id, hash)
    expect(await a.getPasswordHash(user.id)).toBe(hash)
    // Another user's password is theirs alone.
    expect(await a.getPasswordHash(other.id)).toBeNull()
    const theirs = newPasswordHash()
    await a.setPasswordHash(other.id, theirs)
    expect(await a.getPasswordHash(user.id)).toBe(hash)
    expect(await a.getPasswordHash(other.id)).toBe(theirs)
  })

  it("setPasswordHash again replaces the password (one per user)", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    await a.setPasswordHash(user.id, newPasswordHash())
    const replacement = newPasswordHash()
    await a.setPasswordHash(user.id, replacement)
    expect(await a.getPasswordHash(user.id)).toBe(replacement)
    // Only one to remove.
    expect(await a.deletePasswordHash(user.id)).toBe(true)
    expect(await a.getPasswordHash(user.id)).toBeNull()
  })

  it("deletePasswordHash removes the password: true, then false", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const theirs = newPasswordHash()
    await a.setPasswordHash(user.id, newPasswordHash())
    await a.setPasswordHash(other.id, theirs)

    expect(await a.deletePasswordHash(user.id)).toBe(true)
    expect(await a.getPasswordHash(user.id)).toBeNull()
    expect(await a.deletePasswordHash(user.id)).toBe(false)
    expect(await a.deletePasswordHash(randomId("nobody"))).toBe(false)
    // The user stays, and so does everyone else's password.
    expect(await a.getUser(user.id)).toEqual(user)
    expect(await a.getPasswordHash(other.id)).toBe(theirs)
  })

  it("deleteUser removes the user's password", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    await a.setPasswordHash(user.id, newPasswordHash())
    await a.deleteUser(user.id)
    expect(await a.getPasswordHash(user.id)).toBeNull()
    expect(await a.deletePasswordHash(user.id)).toBe(false)
  })

  it("setPasswordHash of an unknown user leaves no password behind", async (a, skip) => {
    if (!storesPasswords(a, skip)) return
    // A password nobody owns would belong to whoever later got that id.
    const id = randomId("nobody")
    try {
      await a.setPasswordHash(id, newPasswordHash())
    } catch {
      // Rejecting is fine too: the type has no "not found" value.
    }
    expect(await a.getPasswordHash(id)).toBeNull()
  })
}
