/**
 * Every method of Latch's `Adapter`, once for all dialects, on Drizzle's query builders (which
 * read the same on PostgreSQL and SQLite); what differs is asked of the dialect (dialect.ts).
 * MySQL, which has no `returning`, replaces the writes with its own (mysql/methods.ts).
 *
 * Single use is one statement: `useVerificationToken` and `useRecoveryCode` are one
 * `delete … returning`, so of concurrent callers only the one whose delete took the row gets it;
 * `incrementCounter` is one upsert whose conflict branch counts on the stored row. Replacing a
 * set (recovery codes) or removing related rows (a second factor with its codes, a user with all
 * they own) is one atomic group.
 *
 * Ids come from Web Crypto's `crypto.randomUUID()`, a global on every runtime Latch supports, so
 * that a Worker without `nodejs_compat` loads the adapter (no `node:` import).
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  SessionChange,
  VerificationToken,
} from "@latch/core/adapters"
import { and, desc, eq, isNull, lte, sql } from "drizzle-orm"
import { report } from "./changes.js"
import type { Dialect } from "./dialect.js"
import {
  emailValue,
  onlyColumns,
  toAccount,
  toAuthenticator,
  authenticatorChanges,
  toSession,
  toUser,
  tokenFields,
} from "./rows.js"

/** The share of `incrementCounter` calls that also sweep expired counters. */
const SWEEP_RATE = 0.01

export function adapterMethods(db: any, dialect: Dialect): Adapter {
  const t = dialect.tables
  const changed = (change: SessionChange) => {
    if (dialect.inProcessChanges) report(dialect.inProcessChanges, change)
  }

  /** Gives a session row made before Latch's session fields an id, once. */
  async function withId(row: any): Promise<AdapterSession> {
    if (row.id !== null && row.id !== undefined) return toSession(row)
    const [updated] = await db
      .update(t.sessions)
      .set({ id: crypto.randomUUID() })
      .where(and(eq(t.sessions.sessionToken, row.sessionToken), isNull(t.sessions.id)))
      .returning()
    if (updated) return toSession(updated)
    // Another request gave it one meanwhile.
    const [current] = await db
      .select()
      .from(t.sessions)
      .where(eq(t.sessions.sessionToken, row.sessionToken))
    return toSession(current ?? row)
  }

  const accountKey = (provider: string, providerAccountId: string) =>
    and(eq(t.accounts.provider, provider), eq(t.accounts.providerAccountId, providerAccountId))

  return {
    async createUser(user: AdapterUser) {
      const values = onlyColumns(t.users, { ...user, email: emailValue(user.email) })
      const [row] = await db.insert(t.users).values(values).returning()
      return toUser(row)
    },

    async getUser(id) {
      const [row] = await db.select().from(t.users).where(eq(t.users.id, id))
      return row ? toUser(row) : null
    },

    async getUserByEmail(email) {
      const [row] = await db.select().from(t.users).where(eq(t.users.email, email))
      return row ? toUser(row) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const [row] = await db
        .select({ user: t.users })
        .from(t.accounts)
        .innerJoin(t.users, eq(t.users.id, t.accounts.userId))
        .where(accountKey(provider, providerAccountId))
      return row ? toUser(row.user) : null
    },

    async updateUser({ id, ...fields }) {
      const changes = onlyColumns(t.users, fields)
      // `null` clears a field; an absent one is kept (onlyColumns leaves out undefined).
      if ("email" in fields && fields.email !== undefined) changes.email = emailValue(fields.email)
      if ("emailVerified" in fields && fields.emailVerified === null) changes.emailVerified = null
      for (const key of ["name", "image"] as const) if (fields[key] === null) changes[key] = null
      const [row] = Object.keys(changes).length
        ? await db.update(t.users).set(changes).where(eq(t.users.id, id)).returning()
        : await db.select().from(t.users).where(eq(t.users.id, id))
      if (!row) throw new Error(`no user with id ${id}`)
      changed({ userId: id })
      return toUser(row)
    },

    async deleteUser(id) {
      // What the user owns goes with them in one transaction, whether or not the database
      // enforces the foreign keys' cascades (SQLite only does with `foreign_keys` on).
      const results = await dialect.atomic((tx) => [
        tx.delete(t.sessions).where(eq(t.sessions.userId, id)).returning(),
        tx.delete(t.accounts).where(eq(t.accounts.userId, id)).returning(),
        tx.delete(t.authenticators).where(eq(t.authenticators.userId, id)).returning(),
        tx.delete(t.passwords).where(eq(t.passwords.userId, id)).returning(),
        tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, id)).returning(),
        tx.delete(t.twoFactors).where(eq(t.twoFactors.userId, id)).returning(),
        tx.delete(t.users).where(eq(t.users.id, id)).returning(),
      ])
      const row = results.at(-1)?.[0]
      if (row) changed({ userId: id })
      return row ? toUser(row) : null
    },

    async linkAccount(account: AdapterAccount) {
      const [row] = await db.insert(t.accounts).values(onlyColumns(t.accounts, account)).returning()
      return toAccount(row)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const [row] = await db
        .delete(t.accounts)
        .where(accountKey(provider, providerAccountId))
        .returning()
      // The Adapter type has no null here: "not found" is undefined.
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider) {
      const [row] = await db
        .select()
        .from(t.accounts)
        .where(accountKey(provider, providerAccountId))
      return row ? toAccount(row) : null
    },

    async listAccountsByUserId(userId) {
      const rows = await db
        .select()
        .from(t.accounts)
        .where(eq(t.accounts.userId, userId))
        .orderBy(t.accounts.provider, t.accounts.providerAccountId)
      return rows.map(toAccount)
    },

    async updateAccount({ provider, providerAccountId, ...fields }) {
      // Only the token fields change; one given as null is cleared, one not given is kept.
      const changes: Record<string, unknown> = {}
      for (const field of tokenFields) {
        const value = (fields as Record<string, unknown>)[field]
        if (value !== undefined && field in t.accounts) changes[field] = value
      }
      const where = accountKey(provider, providerAccountId)
      const [row] = Object.keys(changes).length
        ? await db.update(t.accounts).set(changes).where(where).returning()
        : await db.select().from(t.accounts).where(where)
      return row ? toAccount(row) : null
    },

    async getPasswordHash(userId) {
      const [row] = await db
        .select({ hash: t.passwords.hash })
        .from(t.passwords)
        .where(eq(t.passwords.userId, userId))
      return row ? (row.hash as string) : null
    },

    async setPasswordHash(userId, hash) {
      // One upsert: a user has at most one password, and a new one replaces it. An unknown
      // user fails on the foreign key rather than leaving a password nobody owns.
      const updatedAt = new Date()
      await db
        .insert(t.passwords)
        .values({ userId, hash, updatedAt })
        .onConflictDoUpdate({ target: t.passwords.userId, set: { hash, updatedAt } })
    },

    async deletePasswordHash(userId) {
      const rows = await db.delete(t.passwords).where(eq(t.passwords.userId, userId)).returning()
      return rows.length > 0
    },

    async getTwoFactor(userId) {
      const [row] = await db.select().from(t.twoFactors).where(eq(t.twoFactors.userId, userId))
      return row ? { userId: row.userId, secret: row.secret, enabledAt: row.enabledAt } : null
    },

    async setTwoFactor({ userId, secret, enabledAt }) {
      await db
        .insert(t.twoFactors)
        .values({ userId, secret, enabledAt })
        .onConflictDoUpdate({ target: t.twoFactors.userId, set: { secret, enabledAt } })
    },

    async deleteTwoFactor(userId) {
      // The recovery codes go with the factor, or neither does.
      const [, factors] = await dialect.atomic((tx) => [
        tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, userId)).returning(),
        tx.delete(t.twoFactors).where(eq(t.twoFactors.userId, userId)).returning(),
      ])
      return (factors?.length ?? 0) > 0
    },

    async setRecoveryCodes(userId, hashes) {
      // The whole set replaced in one transaction: of replacements at once, one whole set is
      // left. An unknown user with codes fails on the foreign key, and keeps nothing.
      await dialect.atomic((tx) => [
        ...dialect.lockUser(tx, userId),
        tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, userId)).returning(),
        ...(hashes.length
          ? [
              tx
                .insert(t.recoveryCodes)
                .values([...new Set(hashes)].map((codeHash) => ({ userId, codeHash })))
                .returning(),
            ]
          : []),
      ])
    },

    async useRecoveryCode(userId, hash) {
      const rows = await db
        .delete(t.recoveryCodes)
        .where(and(eq(t.recoveryCodes.userId, userId), eq(t.recoveryCodes.codeHash, hash)))
        .returning()
      return rows.length > 0
    },

    async createSession(session: AdapterSession) {
      // Latch gives an id and a creation time; a caller that does not (Auth.js's flows) gets
      // new ones, so that every session can be listed and revoked by id.
      const values = onlyColumns(t.sessions, {
        ...session,
        id: session.id ?? crypto.randomUUID(),
        createdAt: session.createdAt ?? new Date(),
      })
      const [row] = await db.insert(t.sessions).values(values).returning()
      return toSession(row)
    },

    async getSessionAndUser(sessionToken) {
      const [row] = await db
        .select({ session: t.sessions, user: t.users })
        .from(t.sessions)
        .innerJoin(t.users, eq(t.users.id, t.sessions.userId))
        .where(eq(t.sessions.sessionToken, sessionToken))
      return row ? { session: await withId(row.session), user: toUser(row.user) } : null
    },

    async updateSession(session) {
      const changes: Record<string, unknown> = {}
      if (session.expires) changes.expires = session.expires
      if (session.userId) changes.userId = session.userId
      if (session.lastSeenAt !== undefined) changes.lastSeenAt = session.lastSeenAt
      const where = eq(t.sessions.sessionToken, session.sessionToken)
      const [row] = Object.keys(changes).length
        ? await db.update(t.sessions).set(changes).where(where).returning()
        : await db.select().from(t.sessions).where(where)
      if (row) changed({ sessionToken: session.sessionToken })
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const [row] = await db
        .delete(t.sessions)
        .where(eq(t.sessions.sessionToken, sessionToken))
        .returning()
      if (row) changed({ sessionToken })
      return row ? toSession(row) : null
    },

    async listSessionsByUserId(userId) {
      const rows = await db
        .select()
        .from(t.sessions)
        .where(eq(t.sessions.userId, userId))
        .orderBy(desc(t.sessions.expires))
      return Promise.all(rows.map(withId))
    },

    async deleteSessionsByUserId(userId) {
      const rows = await db.delete(t.sessions).where(eq(t.sessions.userId, userId)).returning()
      if (rows.length) changed({ userId })
      return rows.length
    },

    async deleteSessionById(userId, id) {
      // Scoped to the user: an id alone, guessed or taken from another account's page, ends
      // nothing.
      const [row] = await db
        .delete(t.sessions)
        .where(and(eq(t.sessions.id, id), eq(t.sessions.userId, userId)))
        .returning()
      if (row) changed({ sessionToken: row.sessionToken })
      return row ? toSession(row) : null
    },

    async createVerificationToken(token: VerificationToken) {
      const [row] = await db.insert(t.verificationTokens).values(token).returning()
      return { identifier: row.identifier, token: row.token, expires: row.expires }
    },

    async useVerificationToken({ identifier, token }) {
      // Expired tokens are returned too; core checks `expires`.
      const [row] = await db
        .delete(t.verificationTokens)
        .where(
          and(
            eq(t.verificationTokens.identifier, identifier),
            eq(t.verificationTokens.token, token),
          ),
        )
        .returning()
      return row ? { identifier: row.identifier, token: row.token, expires: row.expires } : null
    },

    async getAuthenticator(credentialID) {
      const [row] = await db
        .select()
        .from(t.authenticators)
        .where(eq(t.authenticators.credentialID, credentialID))
      return row ? toAuthenticator(row) : null
    },

    async createAuthenticator(authenticator: AdapterAuthenticator) {
      const [row] = await db
        .insert(t.authenticators)
        .values(onlyColumns(t.authenticators, authenticator))
        .returning()
      return toAuthenticator(row)
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = await db
        .select()
        .from(t.authenticators)
        .where(eq(t.authenticators.userId, userId))
        .orderBy(t.authenticators.credentialID)
      return rows.map(toAuthenticator)
    },

    async deleteAuthenticator(credentialID) {
      const [row] = await db
        .delete(t.authenticators)
        .where(eq(t.authenticators.credentialID, credentialID))
        .returning()
      return row ? toAuthenticator(row) : null
    },

    async updateAuthenticator(credentialID, fields) {
      // One update of the fields given: a sign-in's counter and time of use together, or a name.
      const changes = authenticatorChanges(fields)
      const where = eq(t.authenticators.credentialID, credentialID)
      const [row] = Object.keys(changes).length
        ? await db.update(t.authenticators).set(changes).where(where).returning()
        : await db.select().from(t.authenticators).where(where)
      return row ? toAuthenticator(row) : null
    },

    async updateAuthenticatorCounter(credentialID, counter) {
      const [row] = await db
        .update(t.authenticators)
        .set({ counter })
        .where(eq(t.authenticators.credentialID, credentialID))
        .returning()
      if (!row) throw new Error(`no authenticator with credential id ${credentialID}`)
      return toAuthenticator(row)
    },

    async incrementCounter(key, expires) {
      // One upsert: the database serialises concurrent callers on the row, and the conflict
      // branch counts on the stored row. A counter past its expiry starts again; a live one
      // keeps its first expiry. Now and then a call also sweeps expired rows.
      const c = t.counters
      const ended = sql`${c.expires} <= ${dialect.now}`
      const [row] = await db
        .insert(c)
        .values({ key, count: 1, expires })
        .onConflictDoUpdate({
          target: c.key,
          set: {
            count: sql`case when ${ended} then 1 else ${c.count} + 1 end`,
            expires: sql`case when ${ended} then ${sql.param(expires, c.expires)} else ${c.expires} end`,
          },
        })
        .returning({ count: c.count })
      if (Math.random() < SWEEP_RATE) await db.delete(c).where(lte(c.expires, dialect.now))
      return Number(row.count)
    },

    async getCounter(key) {
      // The same clock as incrementCounter's: a row past its expiry reads as none (the sweep may
      // not have removed it yet).
      const c = t.counters
      const [row] = await db
        .select({ count: c.count, expires: c.expires })
        .from(c)
        .where(and(eq(c.key, key), sql`${c.expires} > ${dialect.now}`))
      return row ? { count: Number(row.count), expires: row.expires as Date } : null
    },
  }
}
