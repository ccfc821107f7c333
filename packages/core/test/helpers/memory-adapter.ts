/**
 * An adapter that keeps everything in memory: for tests of the flows that need stored users and
 * accounts. It follows the Adapter contract (null for "not found", cascades on deleteUser).
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "../../src/adapters.js"

export interface MemoryAdapter extends Adapter {
  users: Map<string, AdapterUser>
  accounts: Map<string, AdapterAccount>
  sessions: Map<string, AdapterSession>
  tokens: Map<string, VerificationToken>
  counters: Map<string, { count: number; expires: Date }>
  authenticators: Map<string, AdapterAuthenticator>
  passwords: Map<string, string>
  twoFactors: Map<string, AdapterTwoFactor>
  recoveryCodes: Map<string, Set<string>>
}

const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}\u0000${providerAccountId}`

export function memoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const tokens = new Map<string, VerificationToken>()
  const counters = new Map<string, { count: number; expires: Date }>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const passwords = new Map<string, string>()
  const twoFactors = new Map<string, AdapterTwoFactor>()
  const recoveryCodes = new Map<string, Set<string>>()
  return {
    passwords,
    twoFactors,
    recoveryCodes,
    getTwoFactor(userId) {
      return twoFactors.get(userId) ?? null
    },
    setTwoFactor(twoFactor) {
      twoFactors.set(twoFactor.userId, { ...twoFactor })
    },
    deleteTwoFactor(userId) {
      recoveryCodes.delete(userId)
      return twoFactors.delete(userId)
    },
    setRecoveryCodes(userId, hashes) {
      recoveryCodes.set(userId, new Set(hashes))
    },
    useRecoveryCode(userId, hash) {
      return recoveryCodes.get(userId)?.delete(hash) ?? false
    },
    counters,
    authenticators,
    users,
    accounts,
    sessions,
    tokens,
    createUser(user) {
      users.set(user.id, { ...user })
      return { ...user }
    },
    getUser(id) {
      return users.get(id) ?? null
    },
    getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return user
      return null
    },
    getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? (users.get(account.userId) ?? null) : null
    },
    updateUser(user) {
      const updated = { ...users.get(user.id)!, ...user }
      users.set(user.id, updated)
      return updated
    },
    deleteUser(id) {
      const user = users.get(id) ?? null
      users.delete(id)
      for (const [key, account] of accounts) if (account.userId === id) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === id) sessions.delete(key)
      for (const [key, authenticator] of authenticators) {
        if (authenticator.userId === id) authenticators.delete(key)
      }
      passwords.delete(id)
      twoFactors.delete(id)
      recoveryCodes.delete(id)
      return user
    },
    linkAccount(account) {
      accounts.set(accountKey(account.provider, account.providerAccountId), { ...account })
      return account
    },
    unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      accounts.delete(key)
      return account
    },
    getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? { ...account } : null
    },
    listAccountsByUserId(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map((a) => ({ ...a }))
    },
    updateAccount({ provider, providerAccountId, ...changes }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return null
      const updated = { ...account } as Record<string, unknown>
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete updated[field]
        else if (value !== undefined) updated[field] = value
      }
      accounts.set(key, updated as AdapterAccount)
      return { ...(updated as AdapterAccount) }
    },
    createSession(session) {
      sessions.set(session.sessionToken, { ...session })
      return session
    },
    getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      return session && user ? { session, user } : null
    },
    updateSession(session) {
      const updated = { ...sessions.get(session.sessionToken)!, ...session }
      sessions.set(session.sessionToken, updated)
      return updated
    },
    deleteSession(sessionToken) {
      const session = sessions.get(sessionToken) ?? null
      sessions.delete(sessionToken)
      return session
    },
    listSessionsByUserId(userId) {
      return [...sessions.values()].filter((session) => session.userId === userId)
    },
    deleteSessionsByUserId(userId) {
      let count = 0
      for (const [key, session] of sessions) {
        if (session.userId === userId) {
          sessions.delete(key)
          count++
        }
      }
      return count
    },
    createVerificationToken(token) {
      tokens.set(accountKey(token.identifier, token.token), token)
      return token
    },
    useVerificationToken({ identifier, token }) {
      const key = accountKey(identifier, token)
      const found = tokens.get(key) ?? null
      tokens.delete(key)
      return found
    },
    incrementCounter(key, expires) {
      const now = Date.now()
      const current = counters.get(key)
      if (!current || current.expires.getTime() <= now) {
        counters.set(key, { count: 1, expires })
        return 1
      }
      current.count++
      return current.count
    },
    getCounter(key) {
      const current = counters.get(key)
      if (!current || current.expires.getTime() <= Date.now()) return null
      return { ...current }
    },
    createAuthenticator(authenticator) {
      authenticators.set(authenticator.credentialID, { ...authenticator })
      return { ...authenticator }
    },
    getAuthenticator(credentialID) {
      const found = authenticators.get(credentialID)
      return found ? { ...found } : null
    },
    listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId)
    },
    deleteAuthenticator(credentialID) {
      const found = authenticators.get(credentialID) ?? null
      authenticators.delete(credentialID)
      return found
    },
    getPasswordHash(userId) {
      return passwords.get(userId) ?? null
    },
    setPasswordHash(userId, hash) {
      // As a database's foreign key would: no password without its user.
      if (!users.has(userId)) throw new Error(`No user ${userId}`)
      passwords.set(userId, hash)
    },
    deletePasswordHash(userId) {
      return passwords.delete(userId)
    },
    updateAuthenticator(credentialID, fields) {
      const found = authenticators.get(credentialID)
      if (!found) return null
      Object.assign(found, fields)
      return { ...found }
    },
    updateAuthenticatorCounter(credentialID, counter) {
      const found = authenticators.get(credentialID)
      if (!found) throw new Error(`No authenticator ${credentialID}`)
      found.counter = counter
      return { ...found }
    },
  }
}
