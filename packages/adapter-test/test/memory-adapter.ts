/**
 * Core's in-memory test adapter (packages/core/test/helpers/memory-adapter.ts), completed with
 * what the conformance suite found missing or wrong in it. Core's file is left as it is; this
 * wraps it and shares its maps.
 *
 * What core's adapter lacks (as of commit 95a0739), and what this adds:
 * - getAccount;
 * - authenticators: getAuthenticator, createAuthenticator, listAuthenticatorsByUserId,
 *   updateAuthenticatorCounter, and deleteUser cascading to them;
 *   deleteAuthenticator too, on this file's map (core's would delete from its own map, which
 *   this wrapper does not use);
 * - updateUser and updateSession of an unknown id create a partial record (a user without
 *   email, a session without userId): here they throw and return null respectively.
 * - listSessionsByUserId returns core's stored objects themselves: here, copies;
 *   deleteSessionsByUserId is redone here so that each session it deletes is reported.
 *
 * It also has Latch's session methods, so that their cases run on a second adapter:
 * deleteSessionById (core's adapter keeps every field it is given), and watchSessions, which
 * reports this adapter's own writes as they happen (there is nobody else to write); and the
 * password methods, one hash per user in core's `passwords` map when it has one, behaving as a
 * database whose passwords table references users: setPasswordHash of an unknown user throws,
 * and deleteUser takes the password with it. The two-factor methods likewise, on core's
 * `twoFactors` and `recoveryCodes` maps when it has them: setTwoFactor and setRecoveryCodes
 * (with codes) of an unknown user throw, getTwoFactor returns a copy, and deleteUser takes the
 * factor and the codes with it.
 */
import type {
  AdapterAuthenticator,
  AdapterAuthenticatorUpdate,
  AdapterSession,
  AdapterTwoFactor,
  SessionChange,
  SessionChangeListener,
} from "@latch/core/adapters"
import { memoryAdapter as coreMemoryAdapter } from "../../core/test/helpers/memory-adapter.js"

export function memoryAdapter() {
  const core = coreMemoryAdapter()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const passwords =
    (core as { passwords?: Map<string, string> }).passwords ?? new Map<string, string>()
  const twoFactors =
    (core as { twoFactors?: Map<string, AdapterTwoFactor> }).twoFactors ??
    new Map<string, AdapterTwoFactor>()
  const recoveryCodes =
    (core as { recoveryCodes?: Map<string, Set<string>> }).recoveryCodes ??
    new Map<string, Set<string>>()
  const { users, accounts, sessions } = core
  const copy = <T extends object>(value: T): T => ({ ...value })
  const listeners = new Set<SessionChangeListener>()
  const report = (change: SessionChange) => {
    for (const listener of listeners) listener.changed(change)
  }
  const deleteSessionsOf = (userId: string) => {
    let count = 0
    for (const [key, session] of sessions) {
      if (session.userId === userId) {
        sessions.delete(key)
        report({ sessionToken: key })
        count++
      }
    }
    return count
  }

  return {
    ...core,
    authenticators,
    passwords,
    twoFactors,
    recoveryCodes,

    updateUser(user: Parameters<NonNullable<typeof core.updateUser>>[0]) {
      if (!users.has(user.id)) throw new Error(`no user with id ${user.id}`)
      const updated = core.updateUser!(user)
      report({ userId: user.id })
      return updated
    },
    deleteUser(id: string) {
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId === id) authenticators.delete(key)
      }
      deleteSessionsOf(id)
      passwords.delete(id)
      twoFactors.delete(id)
      recoveryCodes.delete(id)
      const deleted = core.deleteUser!(id)
      report({ userId: id })
      return deleted
    },
    updateSession(session: Parameters<NonNullable<typeof core.updateSession>>[0]) {
      if (!sessions.has(session.sessionToken)) return null
      // A field given as undefined is kept, as the Adapter type says.
      const given = Object.fromEntries(Object.entries(session).filter(([, v]) => v !== undefined))
      const updated = core.updateSession!(given as typeof session)
      report({ sessionToken: session.sessionToken })
      return updated
    },
    deleteSession(sessionToken: string) {
      const deleted = core.deleteSession!(sessionToken)
      if (deleted) report({ sessionToken })
      return deleted
    },

    listSessionsByUserId: (userId: string) =>
      [...sessions.values()].filter((session) => session.userId === userId).map(copy),
    deleteSessionsByUserId: deleteSessionsOf,
    deleteSessionById(userId: string, id: string): AdapterSession | null {
      for (const [key, session] of sessions) {
        if (session.id === id && session.userId === userId) {
          sessions.delete(key)
          report({ sessionToken: key })
          return copy(session)
        }
      }
      return null
    },
    watchSessions(listener: SessionChangeListener) {
      listeners.add(listener)
      listener.live(true)
      return { close: () => void listeners.delete(listener) }
    },
    getAccount(providerAccountId: string, provider: string) {
      for (const account of accounts.values()) {
        if (account.provider === provider && account.providerAccountId === providerAccountId) {
          return copy(account)
        }
      }
      return null
    },

    getPasswordHash(userId: string) {
      return passwords.get(userId) ?? null
    },
    setPasswordHash(userId: string, hash: string) {
      // As a foreign key would: no password for a user that does not exist.
      if (!users.has(userId)) throw new Error(`no user with id ${userId}`)
      passwords.set(userId, hash)
    },
    deletePasswordHash(userId: string) {
      return passwords.delete(userId)
    },

    getTwoFactor(userId: string) {
      const found = twoFactors.get(userId)
      return found ? copy(found) : null
    },
    setTwoFactor(twoFactor: AdapterTwoFactor) {
      if (!users.has(twoFactor.userId)) throw new Error(`no user with id ${twoFactor.userId}`)
      twoFactors.set(twoFactor.userId, copy(twoFactor))
    },
    deleteTwoFactor(userId: string) {
      recoveryCodes.delete(userId)
      return twoFactors.delete(userId)
    },
    setRecoveryCodes(userId: string, hashes: string[]) {
      // As a foreign key would: an empty set stores no row, so it needs no user.
      if (hashes.length > 0 && !users.has(userId)) throw new Error(`no user with id ${userId}`)
      recoveryCodes.set(userId, new Set(hashes))
    },
    useRecoveryCode(userId: string, hash: string) {
      // Synchronous: of concurrent calls, only the first finds the code.
      return recoveryCodes.get(userId)?.delete(hash) ?? false
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
    deleteAuthenticator(credentialID: string) {
      const found = authenticators.get(credentialID)
      authenticators.delete(credentialID)
      return found ? copy(found) : null
    },
    updateAuthenticator(credentialID: string, fields: AdapterAuthenticatorUpdate) {
      const found = authenticators.get(credentialID)
      if (!found) return null
      const updated = { ...found, ...fields }
      authenticators.set(credentialID, updated)
      return copy(updated)
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
