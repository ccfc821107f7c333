// An adapter kept in memory, written against the Adapter interface. Ids are handed out in order
// ("user-1", "user-2", …) so that two servers running the same flows store the same records.
import {
  isDate,
  type Adapter,
  type AdapterAccount,
  type AdapterAccountType,
  type AdapterAuthenticator,
  type AdapterSession,
  type AdapterUser,
  type VerificationToken,
} from "@auth/core/adapters"
import type { Account, Authenticator, User } from "@auth/core/types"

export interface MemoryStore {
  users: Map<string, AdapterUser>
  accounts: Map<string, AdapterAccount>
  sessions: Map<string, AdapterSession>
  tokens: Map<string, VerificationToken>
  authenticators: Map<string, AdapterAuthenticator>
}

const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}:${providerAccountId}`

/** The kinds of accounts the store keeps apart (all of them). */
export const accountTypes: AdapterAccountType[] = ["oauth", "oidc", "email", "webauthn"]

export function MemoryAdapter(store?: Partial<MemoryStore>): Adapter {
  const users = store?.users ?? new Map<string, AdapterUser>()
  const accounts = store?.accounts ?? new Map<string, AdapterAccount>()
  const sessions = store?.sessions ?? new Map<string, AdapterSession>()
  const tokens = store?.tokens ?? new Map<string, VerificationToken>()
  const authenticators = store?.authenticators ?? new Map<string, AdapterAuthenticator>()
  let sequence = 0

  const findUser = (id: string): AdapterUser | null => users.get(id) ?? null

  return {
    async createUser(user: AdapterUser) {
      const id = `user-${++sequence}`
      const created: AdapterUser = {
        ...user,
        id,
        email: user.email.toLowerCase(),
        emailVerified: isDate(user.emailVerified) ? new Date(user.emailVerified) : null,
      }
      users.set(id, created)
      return created
    },
    async getUser(id) {
      return findUser(id)
    },
    async getUserByEmail(email) {
      const address = email.toLowerCase()
      for (const user of users.values()) if (user.email === address) return user
      return null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? findUser(account.userId) : null
    },
    async updateUser(user) {
      const current = users.get(user.id)
      if (!current) throw new Error(`no user ${user.id}`)
      const updated: AdapterUser = { ...current, ...user }
      users.set(user.id, updated)
      return updated
    },
    async deleteUser(id) {
      const user = findUser(id)
      users.delete(id)
      for (const [key, account] of accounts) if (account.userId === id) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === id) sessions.delete(key)
      return user
    },
    async linkAccount(account: AdapterAccount) {
      if (!accountTypes.includes(account.type)) throw new Error(`account type ${account.type}`)
      accounts.set(accountKey(account.provider, account.providerAccountId), account)
      return account
    },
    async unlinkAccount({ provider, providerAccountId }) {
      accounts.delete(accountKey(provider, providerAccountId))
    },
    async getAccount(providerAccountId, provider) {
      return accounts.get(accountKey(provider, providerAccountId)) ?? null
    },
    async createSession(session) {
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && findUser(session.userId)
      return session && user ? { session, user } : null
    },
    async updateSession(session) {
      const current = sessions.get(session.sessionToken)
      if (!current) return null
      const updated = { ...current, ...session }
      sessions.set(session.sessionToken, updated)
      return updated
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken) ?? null
      sessions.delete(sessionToken)
      return session
    },
    async createVerificationToken(token) {
      tokens.set(`${token.identifier}:${token.token}`, token)
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const key = `${identifier}:${token}`
      const found = tokens.get(key) ?? null
      tokens.delete(key)
      return found
    },
    async getAuthenticator(credentialID) {
      return authenticators.get(credentialID) ?? null
    },
    async createAuthenticator(authenticator) {
      authenticators.set(authenticator.credentialID, authenticator)
      return authenticator
    },
    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId)
    },
    async updateAuthenticatorCounter(credentialID, counter) {
      const authenticator = authenticators.get(credentialID)
      if (!authenticator) throw new Error(`no authenticator ${credentialID}`)
      const updated = { ...authenticator, counter }
      authenticators.set(credentialID, updated)
      return updated
    },
  }
}

/** What the app shows about an account: never its tokens. */
export function describeAccount(account: Account, user: User, authenticator?: Authenticator) {
  return {
    provider: account.provider,
    type: account.type,
    user: user.email ?? null,
    passkey: authenticator ? authenticator.credentialDeviceType : null,
  }
}
