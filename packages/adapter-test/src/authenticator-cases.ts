/**
 * The cases of `deleteAuthenticator`, for the adapters that let a user remove a passkey from
 * their account. An adapter without the method skips them (with vitest; other runners see them
 * pass).
 */
import type { AdapterAuthenticator } from "@latch/core/adapters"
import type { DefineCase, Full } from "./case.js"
import { newAccount, newAuthenticatorFor, newUser, randomId } from "./fixtures.js"
import type { TestApi } from "./test-api.js"

const byCredentialId = (x: AdapterAuthenticator, y: AdapterAuthenticator) =>
  x.credentialID < y.credentialID ? -1 : 1

export function defineDeleteAuthenticatorCases(t: TestApi, it: DefineCase): void {
  const { expect } = t
  const deletesAuthenticators = (a: Full, skip: (why: string) => void) => {
    if (typeof a.deleteAuthenticator === "function") return true
    skip("the adapter does not implement deleteAuthenticator")
    return false
  }

  it("deleteAuthenticator removes the passkey and returns it; the others stay", async (a, skip) => {
    if (!deletesAuthenticators(a, skip)) return
    const user = newUser()
    const other = newUser()
    await a.createUser(user)
    await a.createUser(other)
    const account = newAccount(user.id)
    await a.linkAccount(account)
    const removed = newAuthenticatorFor(a, user.id, { counter: 12 })
    const kept = newAuthenticatorFor(a, user.id)
    const theirs = newAuthenticatorFor(a, other.id)
    for (const authenticator of [removed, kept, theirs]) await a.createAuthenticator(authenticator)

    expect(await a.deleteAuthenticator(removed.credentialID)).toEqual(removed)
    expect(await a.getAuthenticator(removed.credentialID)).toBeNull()
    expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([kept])
    // The user, their other sign-in methods and everyone else's passkeys stay.
    expect(await a.getAuthenticator(kept.credentialID)).toEqual(kept)
    expect(await a.listAuthenticatorsByUserId(other.id)).toEqual([theirs])
    expect(await a.getUser(user.id)).toEqual(user)
    expect(await a.getAccount(account.providerAccountId, account.provider)).toEqual(account)
  })

  it("deleteAuthenticator of an unknown credential, or of one already deleted, is null", async (a, skip) => {
    if (!deletesAuthenticators(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const authenticator = newAuthenticatorFor(a, user.id)
    await a.createAuthenticator(authenticator)

    expect(await a.deleteAuthenticator(randomId("no-credential"))).toBeNull()
    expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([authenticator])
    expect(await a.deleteAuthenticator(authenticator.credentialID)).toEqual(authenticator)
    expect(await a.deleteAuthenticator(authenticator.credentialID)).toBeNull()
    expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([])
  })

  it("deleteAuthenticator, then unlinkAccount, removes a passkey as it was registered", async (a, skip) => {
    if (!deletesAuthenticators(a, skip)) return
    // A passkey is stored twice: the credential, and an account of type "webauthn" whose
    // providerAccountId is the credential id. Removing it from an account page takes both.
    const user = newUser()
    await a.createUser(user)
    const oauth = newAccount(user.id, { provider: "github", type: "oauth" })
    await a.linkAccount(oauth)
    const passkeys = [newAuthenticatorFor(a, user.id), newAuthenticatorFor(a, user.id)].map(
      (authenticator) => ({
        authenticator: { ...authenticator, providerAccountId: authenticator.credentialID },
        account: {
          userId: user.id,
          type: "webauthn" as const,
          provider: "passkey",
          providerAccountId: authenticator.credentialID,
        },
      }),
    )
    for (const { authenticator, account } of passkeys) {
      await a.linkAccount(account)
      await a.createAuthenticator(authenticator)
    }
    const [removed, kept] = passkeys as [(typeof passkeys)[0], (typeof passkeys)[0]]
    const byAccount = (x: { providerAccountId: string }, y: { providerAccountId: string }) =>
      x.providerAccountId < y.providerAccountId ? -1 : 1
    const accounts = async () => [...(await a.listAccountsByUserId(user.id))].sort(byAccount)
    expect(await accounts()).toEqual([oauth, removed.account, kept.account].sort(byAccount))
    expect([...(await a.listAuthenticatorsByUserId(user.id))].sort(byCredentialId)).toEqual(
      [removed.authenticator, kept.authenticator].sort(byCredentialId),
    )

    expect(await a.deleteAuthenticator(removed.authenticator.credentialID)).toEqual(
      removed.authenticator,
    )
    const unlinked = await a.unlinkAccount(removed.account)
    if (unlinked) expect(unlinked).toEqual(removed.account)

    expect(await accounts()).toEqual([oauth, kept.account].sort(byAccount))
    expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([kept.authenticator])
    expect(await a.getUserByAccount(removed.account)).toBeNull()
    expect(await a.getUserByAccount(kept.account)).toEqual(user)
  })

  it("deleteUser removes the user's passkeys: deleteAuthenticator finds none", async (a, skip) => {
    if (!deletesAuthenticators(a, skip)) return
    const user = newUser()
    await a.createUser(user)
    const authenticators = [newAuthenticatorFor(a, user.id), newAuthenticatorFor(a, user.id)]
    for (const authenticator of authenticators) await a.createAuthenticator(authenticator)

    await a.deleteUser(user.id)
    expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([])
    for (const authenticator of authenticators) {
      expect(await a.deleteAuthenticator(authenticator.credentialID)).toBeNull()
    }
  })
}
