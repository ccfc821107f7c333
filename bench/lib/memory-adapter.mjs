// The floor of the adapter benchmark: the least a database-session adapter can do, in this
// process's memory (Maps, no I/O, no copies). What an adapter costs beyond it is its database.
// Only what a credentials sign-in and a session read call.
export function memoryAdapter() {
  const users = new Map()
  const sessions = new Map()
  const counters = new Map()
  const live = (key) => {
    const counter = counters.get(key)
    return counter && counter.expires > Date.now() ? counter : undefined
  }
  return {
    async createUser(user) {
      users.set(user.id, user)
      return user
    },
    async getUser(id) {
      return users.get(id) ?? null
    },
    async getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return user
      return null
    },
    async getUserByAccount() {
      return null
    },
    async updateUser(user) {
      const updated = { ...users.get(user.id), ...user }
      users.set(user.id, updated)
      return updated
    },
    async linkAccount(account) {
      return account
    },
    async createSession(session) {
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
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
    async incrementCounter(key, expires) {
      const counter = live(key)
      if (counter) return ++counter.count
      counters.set(key, { count: 1, expires: expires.getTime() })
      return 1
    },
    async getCounter(key) {
      const counter = live(key)
      return counter ? { count: counter.count, expires: new Date(counter.expires) } : null
    },
  }
}
