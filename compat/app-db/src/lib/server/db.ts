// The app's database, kept in memory: tables of rows as an SQL database would hold them, the
// users' with a `role` column of the app's own (default "member"), and an adapter over them.
// Ids are handed out in order so that two servers running the same flows store the same rows.
import type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@auth/core/adapters"

/** A row of the users table. */
export interface UserRow extends AdapterUser {
  role: string
}

export const tables = {
  users: new Map<string, UserRow>(),
  accounts: new Map<string, AdapterAccount>(),
  sessions: new Map<string, AdapterSession>(),
  verificationTokens: new Map<string, VerificationToken>(),
}

let sequence = 0
const nextId = () => `user-${++sequence}`

/** The administrator the app was deployed with, before anyone signed in. */
const admin: UserRow = {
  id: nextId(),
  name: "Ada",
  email: "ada@example.com",
  emailVerified: null,
  image: null,
  role: "admin",
}
tables.users.set(admin.id, admin)

const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}:${providerAccountId}`

export function DatabaseAdapter(): Adapter {
  const { users, accounts, sessions, verificationTokens } = tables
  const user = (id: string) => users.get(id) ?? null
  return {
    async createUser(data) {
      const row: UserRow = { ...data, id: nextId(), role: "member" }
      users.set(row.id, row)
      return row
    },
    async getUser(id) {
      return user(id)
    },
    async getUserByEmail(email) {
      for (const row of users.values()) if (row.email === email) return row
      return null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? user(account.userId) : null
    },
    async updateUser(data) {
      const current = users.get(data.id)
      if (!current) throw new Error(`no user ${data.id}`)
      const row: UserRow = { ...current, ...data }
      users.set(row.id, row)
      return row
    },
    async linkAccount(account) {
      accounts.set(accountKey(account.provider, account.providerAccountId), account)
      return account
    },
    async createSession(session) {
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const owner = session && user(session.userId)
      return session && owner ? { session, user: owner } : null
    },
    async updateSession(session) {
      const current = sessions.get(session.sessionToken)
      if (!current) return null
      const row = { ...current, ...session }
      sessions.set(row.sessionToken, row)
      return row
    },
    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken) ?? null
      sessions.delete(sessionToken)
      return session
    },
    async createVerificationToken(token) {
      verificationTokens.set(`${token.identifier}:${token.token}`, token)
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const key = `${identifier}:${token}`
      const row = verificationTokens.get(key) ?? null
      verificationTokens.delete(key)
      return row
    },
  }
}
