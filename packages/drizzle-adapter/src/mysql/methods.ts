/**
 * The adapter methods that MySQL cannot run as the shared code writes them: MySQL has no
 * `returning` (MariaDB's `DELETE … RETURNING` is not in MySQL 8) and upserts with
 * `ON DUPLICATE KEY UPDATE`. The reads are the shared ones.
 *
 * Single use without `returning`: the row is read, then deleted, and only the caller whose
 * delete removed it (`affectedRows` 1) gets it — of concurrent callers, InnoDB lets one delete
 * the row and the others find it gone. A write that must answer with the row writes, then reads
 * it back by its key.
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@latch/core/adapters"
import { and, eq, isNull, lte, sql } from "drizzle-orm"
import type { Tables } from "../tables.js"
import {
  emailValue,
  onlyColumns,
  toAccount,
  toAuthenticator,
  authenticatorChanges,
  toSession,
  toUser,
  tokenFields,
} from "../rows.js"

/** The share of `incrementCounter` calls that also sweep expired counters. */
const SWEEP_RATE = 0.01

/** The rows a write changed, from mysql2's result header. */
const affected = (result: unknown): number =>
  Number((Array.isArray(result) ? result[0] : result)?.affectedRows ?? 0)

export function mysqlMethods(db: any, t: Tables, now: ReturnType<typeof sql>): Partial<Adapter> {
  const first = async (table: any, where: unknown) => {
    const [row] = await db.select().from(table).where(where)
    return row as Record<string, any> | undefined
  }
  /** Deletes the row found by `where`; the row when this call removed it, else undefined. */
  const take = async (table: any, where: unknown) => {
    const row = await first(table, where)
    if (!row) return undefined
    return affected(await db.delete(table).where(where)) > 0 ? row : undefined
  }
  const accountKey = (provider: string, providerAccountId: string) =>
    and(eq(t.accounts.provider, provider), eq(t.accounts.providerAccountId, providerAccountId))
  const userKey = (id: string) => eq(t.users.id, id)
  const sessionKey = (token: string) => eq(t.sessions.sessionToken, token)

  /** Gives a session row made before Latch's session fields an id, once. */
  async function withId(row: any): Promise<AdapterSession> {
    if (row.id !== null && row.id !== undefined) return toSession(row)
    await db
      .update(t.sessions)
      .set({ id: crypto.randomUUID() })
      .where(and(sessionKey(row.sessionToken), isNull(t.sessions.id)))
    // This call's id, or the one another request gave it meanwhile.
    return toSession((await first(t.sessions, sessionKey(row.sessionToken))) ?? row)
  }

  return {
    async createUser(user: AdapterUser) {
      const id = user.id ?? crypto.randomUUID()
      const values = onlyColumns(t.users, { ...user, id, email: emailValue(user.email) })
      await db.insert(t.users).values(values)
      return toUser((await first(t.users, userKey(id)))!)
    },

    async updateUser({ id, ...fields }) {
      const changes = onlyColumns(t.users, fields)
      if ("email" in fields && fields.email !== undefined) changes.email = emailValue(fields.email)
      if ("emailVerified" in fields && fields.emailVerified === null) changes.emailVerified = null
      for (const key of ["name", "image"] as const) if (fields[key] === null) changes[key] = null
      if (Object.keys(changes).length) await db.update(t.users).set(changes).where(userKey(id))
      const row = await first(t.users, userKey(id))
      if (!row) throw new Error(`no user with id ${id}`)
      return toUser(row)
    },

    async deleteUser(id) {
      // What the user owns goes with them in one transaction, whatever the foreign keys say.
      return db.transaction(async (tx: any) => {
        const [row] = await tx.select().from(t.users).where(userKey(id)).for("update")
        if (!row) return null
        for (const table of [
          t.sessions,
          t.accounts,
          t.authenticators,
          t.passwords,
          t.recoveryCodes,
          t.twoFactors,
        ]) {
          await tx.delete(table).where(eq(table.userId, id))
        }
        await tx.delete(t.users).where(userKey(id))
        return toUser(row)
      })
    },

    async linkAccount(account: AdapterAccount) {
      await db.insert(t.accounts).values(onlyColumns(t.accounts, account))
      return toAccount(
        (await first(t.accounts, accountKey(account.provider, account.providerAccountId)))!,
      )
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await take(t.accounts, accountKey(provider, providerAccountId))
      return row ? toAccount(row) : undefined
    },

    async updateAccount({ provider, providerAccountId, ...fields }) {
      const changes: Record<string, unknown> = {}
      for (const field of tokenFields) {
        const value = (fields as Record<string, unknown>)[field]
        if (value !== undefined && field in t.accounts) changes[field] = value
      }
      const where = accountKey(provider, providerAccountId)
      if (Object.keys(changes).length) await db.update(t.accounts).set(changes).where(where)
      const row = await first(t.accounts, where)
      return row ? toAccount(row) : null
    },

    async setPasswordHash(userId, hash) {
      const updatedAt = new Date()
      await db
        .insert(t.passwords)
        .values({ userId, hash, updatedAt })
        .onDuplicateKeyUpdate({ set: { hash, updatedAt } })
    },

    async deletePasswordHash(userId) {
      return affected(await db.delete(t.passwords).where(eq(t.passwords.userId, userId))) > 0
    },

    async setTwoFactor({ userId, secret, enabledAt }) {
      await db
        .insert(t.twoFactors)
        .values({ userId, secret, enabledAt })
        .onDuplicateKeyUpdate({ set: { secret, enabledAt } })
    },

    async deleteTwoFactor(userId) {
      // The recovery codes go with the factor, or neither does.
      return db.transaction(async (tx: any) => {
        await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, userId))
        return affected(await tx.delete(t.twoFactors).where(eq(t.twoFactors.userId, userId))) > 0
      })
    },

    async setRecoveryCodes(userId, hashes) {
      // The user row locked first: of two replacements at once, the second waits for the first
      // and deletes what it inserted, so one whole set is left.
      await db.transaction(async (tx: any) => {
        await tx.select({ id: t.users.id }).from(t.users).where(userKey(userId)).for("update")
        await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, userId))
        if (hashes.length) {
          const rows = [...new Set(hashes)].map((codeHash) => ({ userId, codeHash }))
          await tx.insert(t.recoveryCodes).values(rows)
        }
      })
    },

    async useRecoveryCode(userId, hash) {
      const where = and(eq(t.recoveryCodes.userId, userId), eq(t.recoveryCodes.codeHash, hash))
      return affected(await db.delete(t.recoveryCodes).where(where)) > 0
    },

    async createSession(session: AdapterSession) {
      const values = onlyColumns(t.sessions, {
        ...session,
        id: session.id ?? crypto.randomUUID(),
        createdAt: session.createdAt ?? new Date(),
      })
      await db.insert(t.sessions).values(values)
      return toSession((await first(t.sessions, sessionKey(session.sessionToken)))!)
    },

    async getSessionAndUser(sessionToken) {
      const [row] = await db
        .select({ session: t.sessions, user: t.users })
        .from(t.sessions)
        .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
        .where(sessionKey(sessionToken))
      return row ? { session: await withId(row.session), user: toUser(row.user) } : null
    },

    async listSessionsByUserId(userId) {
      const rows = await db
        .select()
        .from(t.sessions)
        .where(eq(t.sessions.userId, userId))
        .orderBy(sql`${t.sessions.expires} desc`)
      return Promise.all(rows.map(withId))
    },

    async updateSession(session) {
      const changes: Record<string, unknown> = {}
      if (session.expires) changes.expires = session.expires
      if (session.userId) changes.userId = session.userId
      if (session.lastSeenAt !== undefined) changes.lastSeenAt = session.lastSeenAt
      const where = sessionKey(session.sessionToken)
      if (Object.keys(changes).length) await db.update(t.sessions).set(changes).where(where)
      const row = await first(t.sessions, where)
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const row = await take(t.sessions, sessionKey(sessionToken))
      return row ? toSession(row) : null
    },

    async deleteSessionsByUserId(userId) {
      return affected(await db.delete(t.sessions).where(eq(t.sessions.userId, userId)))
    },

    async deleteSessionById(userId, id) {
      // Scoped to the user: an id alone, guessed or taken from another account's page, ends
      // nothing.
      const row = await take(t.sessions, and(eq(t.sessions.id, id), eq(t.sessions.userId, userId)))
      return row ? toSession(row) : null
    },

    async createVerificationToken(token: VerificationToken) {
      await db.insert(t.verificationTokens).values(token)
      return { identifier: token.identifier, token: token.token, expires: token.expires }
    },

    async useVerificationToken({ identifier, token }) {
      // Expired tokens are returned too; core checks `expires`.
      const v = t.verificationTokens
      const row = await take(v, and(eq(v.identifier, identifier), eq(v.token, token)))
      return row ? { identifier: row.identifier, token: row.token, expires: row.expires } : null
    },

    async createAuthenticator(authenticator: AdapterAuthenticator) {
      await db.insert(t.authenticators).values(onlyColumns(t.authenticators, authenticator))
      const where = eq(t.authenticators.credentialID, authenticator.credentialID)
      return toAuthenticator((await first(t.authenticators, where))!)
    },

    async deleteAuthenticator(credentialID) {
      const row = await take(t.authenticators, eq(t.authenticators.credentialID, credentialID))
      return row ? toAuthenticator(row) : null
    },

    async updateAuthenticator(credentialID, fields) {
      const changes = authenticatorChanges(fields)
      const where = eq(t.authenticators.credentialID, credentialID)
      if (Object.keys(changes).length) await db.update(t.authenticators).set(changes).where(where)
      const row = await first(t.authenticators, where)
      return row ? toAuthenticator(row) : null
    },

    async updateAuthenticatorCounter(credentialID, counter) {
      const where = eq(t.authenticators.credentialID, credentialID)
      await db.update(t.authenticators).set({ counter }).where(where)
      const row = await first(t.authenticators, where)
      if (!row) throw new Error(`no authenticator with credential id ${credentialID}`)
      return toAuthenticator(row)
    },

    async incrementCounter(key, expires) {
      // One upsert, which holds the row's lock until the transaction ends, and the count read
      // back inside it: concurrent callers are serialised on the row. `count` is assigned before
      // `expires` (the table's column order), so both see the stored `expires`.
      const c = t.counters
      const ended = sql`${c.expires} <= ${now}`
      const count = await db.transaction(async (tx: any) => {
        await tx
          .insert(c)
          .values({ key, count: 1, expires })
          .onDuplicateKeyUpdate({
            set: {
              count: sql`case when ${ended} then 1 else ${c.count} + 1 end`,
              expires: sql`case when ${ended} then ${sql.param(expires, c.expires)} else ${c.expires} end`,
            },
          })
        const [row] = await tx.select({ count: c.count }).from(c).where(eq(c.key, key))
        return Number(row.count)
      })
      if (Math.random() < SWEEP_RATE) await db.delete(c).where(lte(c.expires, now))
      return count
    },
  }
}
