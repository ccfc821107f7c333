/**
 * The cases of Latch's passkey fields (`name`, `createdAt`, `lastUsedAt`, `aaguid`, `createdBy`,
 * `secondFactor`), for the adapters that store them: those implementing `updateAuthenticator`.
 * An adapter without the method skips them (with vitest; other runners see them pass).
 */
import type { AdapterAuthenticator } from "@latch/core/adapters"
import type { DefineCase, Full } from "./case.js"
import { fromNow, newAuthenticator, newLatchAuthenticator, newUser, randomId } from "./fixtures.js"
import type { TestApi } from "./test-api.js"

const LATCH_FIELDS = ["name", "createdAt", "lastUsedAt", "aaguid", "createdBy"] as const

export function definePasskeyFieldCases(t: TestApi, it: DefineCase): void {
  const { expect } = t
  const storesFields = (a: Full, skip: (why: string) => void) => {
    if (typeof a.updateAuthenticator === "function") return true
    skip("the adapter does not implement updateAuthenticator")
    return false
  }
  const byId = (x: AdapterAuthenticator, y: AdapterAuthenticator) =>
    x.credentialID < y.credentialID ? -1 : 1

  it("passkey fields round-trip through create, get, list and delete", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const used = newLatchAuthenticator(user.id, { lastUsedAt: fromNow(-1_000) })
    const bare = newLatchAuthenticator(user.id, {
      name: "Ключ 🔑 <b>&amp;",
      aaguid: null,
      createdBy: null,
      secondFactor: true,
    })
    expect(await a.createAuthenticator(used)).toEqual(used)
    expect(await a.createAuthenticator(bare)).toEqual(bare)

    const found = await a.getAuthenticator(used.credentialID)
    expect(found).toEqual(used)
    expect(found!.createdAt).toBeInstanceOf(Date)
    expect(found!.lastUsedAt).toBeInstanceOf(Date)
    expect(await a.getAuthenticator(bare.credentialID)).toEqual(bare)
    const listed = await a.listAuthenticatorsByUserId(user.id)
    expect([...listed].sort(byId)).toEqual([used, bare].sort(byId))
    expect(await a.deleteAuthenticator(bare.credentialID)).toEqual(bare)
  })

  it("a passkey created without them (an Auth.js row) reads back with none", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const plain = newAuthenticator(user.id)
    await a.createAuthenticator(plain)
    const found = (await a.getAuthenticator(plain.credentialID))!
    expect(found).toMatchObject(plain)
    for (const field of LATCH_FIELDS) expect(found[field] ?? null).toBeNull()
    expect(found.secondFactor ?? false).toBe(false)
  })

  it("updateAuthenticator changes the fields given and keeps the others", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const passkey = newLatchAuthenticator(user.id, { counter: 3 })
    const other = newLatchAuthenticator(user.id)
    await a.createAuthenticator(passkey)
    await a.createAuthenticator(other)

    // A sign-in: the counter and the time of use, in one call.
    const lastUsedAt = fromNow(0)
    const used = { ...passkey, counter: 4, lastUsedAt }
    expect(await a.updateAuthenticator(passkey.credentialID, { counter: 4, lastUsedAt })).toEqual(
      used,
    )
    expect(await a.getAuthenticator(passkey.credentialID)).toEqual(used)

    // A rename: the name alone.
    const renamed = { ...used, name: "Phone" }
    expect(await a.updateAuthenticator(passkey.credentialID, { name: "Phone" })).toEqual(renamed)
    expect(await a.getAuthenticator(passkey.credentialID)).toEqual(renamed)
    expect(await a.updateAuthenticator(passkey.credentialID, { secondFactor: true })).toEqual({
      ...renamed,
      secondFactor: true,
    })
    // Nothing else changed.
    expect(await a.getAuthenticator(other.credentialID)).toEqual(other)
  })

  it("updateAuthenticator of an unknown credential is null and creates nothing", async (a, skip) => {
    if (!storesFields(a, skip)) return
    const credentialID = randomId("no-credential")
    expect(await a.updateAuthenticator(credentialID, { name: "x", counter: 1 })).toBeNull()
    expect(await a.getAuthenticator(credentialID)).toBeNull()
  })
}
