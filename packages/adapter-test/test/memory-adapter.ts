/**
 * Core's in-memory test adapter (packages/core/test/helpers/memory-adapter.ts), completed with
 * what the conformance suite found missing or wrong in it. Core's file is left as it is; this
 * wraps it and shares its maps.
 *
 * What core's adapter lacks (as of commit 95a0739), and what this adds:
 * - getAccount;
 * - authenticators: getAuthenticator, createAuthenticator, listAuthenticatorsByUserId,
 *   updateAuthenticatorCounter, and deleteUser cascading to them;
 * - updateUser and updateSession of an unknown id create a partial record (a user without
 *   email, a session without userId): here they throw and return null respectively.
 * listSessionsByUserId and deleteSessionsByUserId came to core's adapter in 95a0739; the
 * versions here are used only where core's are missing.
 */
import type { AdapterAuthenticator } from "@latch/core/adapters"
import { memoryAdapter as coreMemoryAdapter } from "../../core/test/helpers/memory-adapter.js"

export function memoryAdapter() {
  const core = coreMemoryAdapter()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const { users, accounts, sessions } = core
  const copy = <T extends object>(value: T): T => ({ ...value })

  return {
    ...core,
    authenticators,

    updateUser(user: Parameters<NonNullable<typeof core.updateUser>>[0]) {
      if (!users.has(user.id)) throw new Error(`no user with id ${user.id}`)
      return core.updateUser!(user)
    },
    deleteUser(id: string) {
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId === id) authenticators.delete(key)
      }
      return core.deleteUser!(id)
    },
    updateSession(session: Parameters<NonNullable<typeof core.updateSession>>[0]) {
      if (!sessions.has(session.sessionToken)) return null
      return core.updateSession!(session)
    },

    listSessionsByUserId:
      core.listSessionsByUserId ??
      ((userId: string) =>
        [...sessions.values()].filter((session) => session.userId === userId).map(copy)),
    deleteSessionsByUserId:
      core.deleteSessionsByUserId ??
      ((userId: string) => {
        let count = 0
        for (const [key, session] of sessions) {
          if (session.userId === userId) {
            sessions.delete(key)
            count++
          }
        }
        return count
      }),
    getAccount(providerAccountId: string, provider: string) {
      for (const account of accounts.values()) {
        if (account.provider === provider && account.providerAccountId === providerAccountId) {
          return copy(account)
        }
      }
      return null
    },

    getAuthenticator(credentialID: string) {
      const found = authenticators.get(credentialID)
      return found ? copy(found) : null
    },
    createAuthenticator(authenticator: AdapterAuthenticator) {
      authenticators.set(authenticator.credentialID, copy(authenticator))
      return copy(authenticator)
    },
    listAuthenticatorsByUserId(userId: string) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy)
    },
    updateAuthenticatorCounter(credentialID: string, newCounter: number) {
      const found = authenticators.get(credentialID)
      if (!found) throw new Error(`no authenticator with credential id ${credentialID}`)
      const updated = { ...found, counter: newCounter }
      authenticators.set(credentialID, updated)
      return copy(updated)
    },
  }
}
