/**
 * A Latch adapter that keeps users, password hashes and link tokens in memory: enough for
 * password accounts with JWT sessions (no session rows, no OAuth accounts). Each server process,
 * and each Worker isolate, has its own store, lost when it stops: for a demo and its checks.
 * A deployment keeps them in a database (`@latch/pg-adapter`, or any Auth.js adapter).
 */
import type { Adapter, AdapterUser, VerificationToken } from "@latch/sveltekit/adapters"

export interface MemoryStore {
  users: Map<string, AdapterUser>
  passwords: Map<string, string>
  tokens: Map<string, VerificationToken>
}

export function memoryAdapter(store: MemoryStore = emptyStore()): Adapter {
  const { users, passwords, tokens } = store
  const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`
  return {
    createUser(user) {
      users.set(user.id, { ...user })
      return { ...user }
    },
    getUser(id) {
      const user = users.get(id)
      return user ? { ...user } : null
    },
    getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return { ...user }
      return null
    },
    getUserByAccount() {
      // No OAuth or email-link accounts here: only the Password provider's.
      return null
    },
    updateUser(user) {
      const current = users.get(user.id)
      if (!current) throw new Error(`No user ${user.id}`)
      const updated = { ...current, ...user }
      users.set(user.id, updated)
      return { ...updated }
    },
    linkAccount(account) {
      return account
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
    createVerificationToken(token) {
      tokens.set(tokenKey(token.identifier, token.token), { ...token })
      return token
    },
    useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token)
      const found = tokens.get(key) ?? null
      tokens.delete(key)
      return found
    },
  }
}

export function emptyStore(): MemoryStore {
  return { users: new Map(), passwords: new Map(), tokens: new Map() }
}
