/**
 * The PostgreSQL adapter: every method of Latch's `Adapter` on one `query(text, params)`.
 *
 * Each method is a single parameterised statement that finds its rows through an index (a
 * primary key, a unique constraint or an index on `user_id`); `getSessionAndUser` is one join,
 * and `useVerificationToken` one `delete … returning`, so a token is handed out once even when
 * several requests race for it (`useRecoveryCode` likewise). `setRecoveryCodes` is one call of
 * the SQL function that `migrate` creates for it (recovery-codes.ts). `watchSessions` (watch.ts)
 * listens to what the triggers of `migrate` report.
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@latch/core/adapters"
import {
  PostgresAdapterError,
  tableNames,
  type PostgresAdapterOptions,
  type Queryable,
  type Row,
} from "./client.js"
import { setRecoveryCodesFunction } from "./recovery-codes.js"
import {
  accountColumns,
  accountValues,
  emailValue,
  sessionValues,
  toAccount,
  toAuthenticator,
  authenticatorColumns,
  authenticatorUpdateColumns,
  authenticatorValues,
  toPasswordHash,
  toSession,
  toTwoFactor,
  toUser,
  toVerificationToken,
  userColumns,
  userValues,
  type NewUser,
} from "./rows.js"
import { watchSessions } from "./watch.js"

type MethodName =
  | "createUser"
  | "getUser"
  | "getUserByEmail"
  | "getUserByAccount"
  | "updateUser"
  | "deleteUser"
  | "linkAccount"
  | "unlinkAccount"
  | "createSession"
  | "getSessionAndUser"
  | "updateSession"
  | "deleteSession"
  | "listSessionsByUserId"
  | "deleteSessionsByUserId"
  | "deleteSessionById"
  | "watchSessions"
  | "createVerificationToken"
  | "useVerificationToken"
  | "getAccount"
  | "listAccountsByUserId"
  | "updateAccount"
  | "getPasswordHash"
  | "setPasswordHash"
  | "deletePasswordHash"
  | "getTwoFactor"
  | "setTwoFactor"
  | "deleteTwoFactor"
  | "setRecoveryCodes"
  | "useRecoveryCode"
  | "getAuthenticator"
  | "createAuthenticator"
  | "listAuthenticatorsByUserId"
  | "deleteAuthenticator"
  | "updateAuthenticatorCounter"
  | "updateAuthenticator"
  | "incrementCounter"
  | "getCounter"

/** The adapter's methods: all of `Adapter`'s, none optional, each returning a Promise. */
export type PostgresAdapterMethods = {
  [K in Exclude<MethodName, "createUser">]: (
    ...args: Parameters<NonNullable<Adapter[K]>>
  ) => Promise<Awaited<ReturnType<NonNullable<Adapter[K]>>>>
} & {
  /**
   * Creates a user. Without an `id` (or with an empty one) the database makes one, a UUID, as
   * `users.id`'s default does for SQL inserts: a seeding script need not invent ids.
   */
  createUser(user: NewUser): Promise<AdapterUser>
}

/** Something that may be a `pg.Pool`: an event emitter with `error` events. */
interface MaybeEmitter {
  on?: unknown
  listenerCount?: unknown
}

/**
 * A `pg.Pool` emits `error` when an idle connection dies (the server restarted, a proxy closed
 * it). Without a listener Node turns that into an uncaught exception and the app crashes; pg has
 * already dropped the connection, so the next query simply opens a new one. If the pool has no
 * listener yet, add one that ignores the event.
 */
function keepPoolErrorsFromCrashing(client: Queryable): void {
  const emitter = client as Queryable & MaybeEmitter
  if (typeof emitter.on !== "function" || typeof emitter.listenerCount !== "function") return
  if ((emitter.listenerCount as (event: string) => number).call(emitter, "error") > 0) return
  ;(emitter.on as (event: string, listener: () => void) => void).call(emitter, "error", () => {})
}

/**
 * The adapter for a `pg.Pool` (or `pg.Client`) or a PGlite instance. Create the tables first
 * with `migrate(client)`.
 */
export function PostgresAdapter(
  client: Queryable,
  options: PostgresAdapterOptions = {},
): PostgresAdapterMethods {
  const t = tableNames(options)
  const setRecoveryCodes = setRecoveryCodesFunction(options)
  keepPoolErrorsFromCrashing(client)

  async function rows(method: string, text: string, params: unknown[]): Promise<Row[]> {
    try {
      const result = await client.query(text, params)
      return result.rows as Row[]
    } catch (error) {
      throw new PostgresAdapterError(method, error)
    }
  }

  async function first(method: string, text: string, params: unknown[]): Promise<Row | null> {
    return (await rows(method, text, params))[0] ?? null
  }

  /** The account fields `updateAccount` may change, and their columns. */
  const updatableAccountColumns = [
    ["access_token", "access_token"],
    ["refresh_token", "refresh_token"],
    ["id_token", "id_token"],
    ["token_type", "token_type"],
    ["scope", "scope"],
    ["session_state", "session_state"],
    ["expires_at", "expires_at"],
    ["authorization_details", "authorization_details"],
  ] as const

  const accountPlaceholders = accountColumns.map((column, i) =>
    column === "authorization_details" ? `$${i + 1}::jsonb` : `$${i + 1}`,
  )
  const accountInsert = `insert into ${t.accounts} (${accountColumns.join(", ")})
    values (${accountPlaceholders.join(", ")}) returning *`

  return {
    async createUser(user: NewUser) {
      const row = await first(
        "createUser",
        `insert into ${t.users} (id, name, email, email_verified, image)
         values (coalesce(nullif($1, ''), gen_random_uuid()::text), $2, $3, $4, $5)
         returning *`,
        userValues(user),
      )
      return toUser(row!)
    },

    async getUser(id) {
      const row = await first("getUser", `select * from ${t.users} where id = $1`, [id])
      return row && toUser(row)
    },

    async getUserByEmail(email) {
      const row = await first("getUserByEmail", `select * from ${t.users} where email = $1`, [
        email,
      ])
      return row && toUser(row)
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await first(
        "getUserByAccount",
        `select u.* from ${t.accounts} a join ${t.users} u on u.id = a.user_id
         where a.provider = $1 and a.provider_account_id = $2`,
        [provider, providerAccountId],
      )
      return row && toUser(row)
    },

    async updateUser(user) {
      const sets: string[] = []
      const params: unknown[] = [user.id]
      for (const [field, column] of Object.entries(userColumns)) {
        const value = user[field as keyof typeof userColumns]
        if (value === undefined) continue // absent: keep; null: clear
        params.push(field === "email" ? emailValue(value as string | null) : value)
        sets.push(`${column} = $${params.length}`)
      }
      const row = await first(
        "updateUser",
        sets.length === 0
          ? `select * from ${t.users} where id = $1`
          : `update ${t.users} set ${sets.join(", ")} where id = $1 returning *`,
        params,
      )
      if (!row)
        throw new PostgresAdapterError("updateUser", new Error(`no user with id ${user.id}`))
      return toUser(row)
    },

    async deleteUser(id) {
      // Accounts, sessions, authenticators, the password, the second factor and the recovery
      // codes go with the user: `on delete cascade`.
      const row = await first("deleteUser", `delete from ${t.users} where id = $1 returning *`, [
        id,
      ])
      return row && toUser(row)
    },

    async linkAccount(account: AdapterAccount) {
      const row = await first("linkAccount", accountInsert, accountValues(account))
      return toAccount(row!)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await first(
        "unlinkAccount",
        `delete from ${t.accounts} where provider = $1 and provider_account_id = $2 returning *`,
        [provider, providerAccountId],
      )
      // The Adapter type has no null here: "not found" is undefined.
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider) {
      const row = await first(
        "getAccount",
        `select * from ${t.accounts} where provider = $1 and provider_account_id = $2`,
        [provider, providerAccountId],
      )
      return row && toAccount(row)
    },

    async listAccountsByUserId(userId) {
      const found = await rows(
        "listAccountsByUserId",
        `select * from ${t.accounts} where user_id = $1 order by provider, provider_account_id`,
        [userId],
      )
      return found.map(toAccount)
    },

    async updateAccount({ provider, providerAccountId, ...changes }) {
      // Only the token columns change; a field given as null is cleared, one not given is kept.
      const sets: string[] = []
      const values: unknown[] = [provider, providerAccountId]
      for (const [field, column] of updatableAccountColumns) {
        const value = (changes as Record<string, unknown>)[field]
        if (value === undefined) continue
        values.push(
          column === "authorization_details" && value !== null ? JSON.stringify(value) : value,
        )
        sets.push(
          `${column} = $${values.length}${column === "authorization_details" ? "::jsonb" : ""}`,
        )
      }
      const where = "where provider = $1 and provider_account_id = $2"
      const row = await first(
        "updateAccount",
        sets.length
          ? `update ${t.accounts} set ${sets.join(", ")} ${where} returning *`
          : `select * from ${t.accounts} ${where}`,
        values,
      )
      return row && toAccount(row)
    },

    async getPasswordHash(userId) {
      const row = await first(
        "getPasswordHash",
        `select hash from ${t.passwords} where user_id = $1`,
        [userId],
      )
      return row && toPasswordHash(row)
    },

    async setPasswordHash(userId, hash) {
      // One upsert: a user has at most one password, and a new one (a reset, a change) replaces
      // it. An unknown user fails on the foreign key rather than leaving a password nobody owns.
      await rows(
        "setPasswordHash",
        `insert into ${t.passwords} (user_id, hash) values ($1, $2)
         on conflict (user_id) do update set hash = excluded.hash, updated_at = now()`,
        [userId, hash],
      )
    },

    async deletePasswordHash(userId) {
      const deleted = await rows(
        "deletePasswordHash",
        `delete from ${t.passwords} where user_id = $1 returning user_id`,
        [userId],
      )
      return deleted.length > 0
    },

    async getTwoFactor(userId) {
      const row = await first(
        "getTwoFactor",
        `select user_id, secret, enabled_at from ${t.twoFactors} where user_id = $1`,
        [userId],
      )
      return row && toTwoFactor(row)
    },

    async setTwoFactor({ userId, secret, enabledAt }) {
      // One upsert, as for passwords: a user has at most one second factor, and a new one
      // replaces it. An unknown user fails on the foreign key.
      await rows(
        "setTwoFactor",
        `insert into ${t.twoFactors} (user_id, secret, enabled_at) values ($1, $2, $3)
         on conflict (user_id) do update
           set secret = excluded.secret, enabled_at = excluded.enabled_at`,
        [userId, secret, enabledAt],
      )
    },

    async deleteTwoFactor(userId) {
      // One statement: the recovery codes go with the factor, or neither does.
      const deleted = await rows(
        "deleteTwoFactor",
        `with codes as (delete from ${t.recoveryCodes} where user_id = $1)
         delete from ${t.twoFactors} where user_id = $1 returning user_id`,
        [userId],
      )
      return deleted.length > 0
    },

    async setRecoveryCodes(userId, hashes) {
      // The whole set replaced in one transaction, delete then insert, by the function of
      // recovery-codes.ts; concurrent replacements leave one whole set. An unknown user with
      // codes fails on the foreign key, and keeps nothing.
      await rows("setRecoveryCodes", `select ${setRecoveryCodes}($1, $2::text[])`, [userId, hashes])
    },

    async useRecoveryCode(userId, hash) {
      // One `delete … returning`, scoped to the user: of concurrent callers with the same code,
      // only the one whose delete took the row gets `true`; another user's code is not found.
      const deleted = await rows(
        "useRecoveryCode",
        `delete from ${t.recoveryCodes} where user_id = $1 and code_hash = $2 returning user_id`,
        [userId, hash],
      )
      return deleted.length > 0
    },

    async createSession(session: AdapterSession) {
      // Latch gives an id and a creation time; a caller that does not gets the columns' own.
      const row = await first(
        "createSession",
        `insert into ${t.sessions} (session_token, user_id, expires, id, user_agent,
           client_address, created_at, last_seen_at)
         values ($1, $2, $3, coalesce($4, gen_random_uuid()::text), $5, $6,
           coalesce($7, now()), $8)
         returning *`,
        sessionValues(session),
      )
      return toSession(row!)
    },

    async getSessionAndUser(sessionToken) {
      const row = await first(
        "getSessionAndUser",
        `select s.session_token, s.user_id, s.expires, s.id as session_id, s.user_agent,
                s.client_address, s.created_at, s.last_seen_at,
                u.id, u.name, u.email, u.email_verified, u.image
         from ${t.sessions} s join ${t.users} u on u.id = s.user_id
         where s.session_token = $1`,
        [sessionToken],
      )
      return row && { session: toSession(row), user: toUser(row) }
    },

    async updateSession(session) {
      // A field not given is kept; `lastSeenAt: null` clears it (the others cannot be null).
      const row = await first(
        "updateSession",
        `update ${t.sessions}
         set expires = coalesce($2, expires), user_id = coalesce($3, user_id),
             last_seen_at = case when $5::boolean then $4::timestamptz else last_seen_at end
         where session_token = $1 returning *`,
        [
          session.sessionToken,
          session.expires ?? null,
          session.userId ?? null,
          session.lastSeenAt ?? null,
          session.lastSeenAt !== undefined,
        ],
      )
      return row && toSession(row)
    },

    async deleteSession(sessionToken) {
      const row = await first(
        "deleteSession",
        `delete from ${t.sessions} where session_token = $1 returning *`,
        [sessionToken],
      )
      return row && toSession(row)
    },

    async listSessionsByUserId(userId) {
      const found = await rows(
        "listSessionsByUserId",
        `select * from ${t.sessions} where user_id = $1 order by expires desc`,
        [userId],
      )
      return found.map(toSession)
    },

    async deleteSessionsByUserId(userId) {
      const deleted = await rows(
        "deleteSessionsByUserId",
        `delete from ${t.sessions} where user_id = $1 returning session_token`,
        [userId],
      )
      return deleted.length
    },

    async deleteSessionById(userId, id) {
      // Scoped to the user: an id alone, guessed or taken from another account's page, ends
      // nothing.
      const row = await first(
        "deleteSessionById",
        `delete from ${t.sessions} where id = $2 and user_id = $1 returning *`,
        [userId, id],
      )
      return row && toSession(row)
    },

    async watchSessions(listener) {
      return watchSessions(client, listener, options)
    },

    async createVerificationToken(token: VerificationToken) {
      // The token arrives hashed: core hashes it before storing and before looking it up.
      const row = await first(
        "createVerificationToken",
        `insert into ${t.verificationTokens} (identifier, token, expires) values ($1, $2, $3)
         returning *`,
        [token.identifier, token.token, token.expires],
      )
      return toVerificationToken(row!)
    },

    async useVerificationToken({ identifier, token }) {
      // One statement: of concurrent callers, only the one whose delete took the row gets it.
      // Expired tokens are returned too; core checks `expires`.
      const row = await first(
        "useVerificationToken",
        `delete from ${t.verificationTokens} where identifier = $1 and token = $2 returning *`,
        [identifier, token],
      )
      return row && toVerificationToken(row)
    },

    async getAuthenticator(credentialID) {
      const row = await first(
        "getAuthenticator",
        `select * from ${t.authenticators} where credential_id = $1`,
        [credentialID],
      )
      return row && toAuthenticator(row)
    },

    async createAuthenticator(authenticator: AdapterAuthenticator) {
      const row = await first(
        "createAuthenticator",
        `insert into ${t.authenticators} (${authenticatorColumns.join(", ")})
         values (${authenticatorColumns.map((_, i) => `$${i + 1}`).join(", ")}) returning *`,
        authenticatorValues(authenticator),
      )
      return toAuthenticator(row!)
    },

    async listAuthenticatorsByUserId(userId) {
      const found = await rows(
        "listAuthenticatorsByUserId",
        `select * from ${t.authenticators} where user_id = $1 order by credential_id`,
        [userId],
      )
      return found.map(toAuthenticator)
    },

    async deleteAuthenticator(credentialID) {
      // One `delete … returning`: the passkey removed, or nothing when there was none.
      const row = await first(
        "deleteAuthenticator",
        `delete from ${t.authenticators} where credential_id = $1 returning *`,
        [credentialID],
      )
      return row && toAuthenticator(row)
    },

    async updateAuthenticator(credentialID, fields) {
      // One `update … returning` of the fields given: a sign-in's counter and time of use
      // together, or a new name.
      const sets: string[] = []
      const values: unknown[] = [credentialID]
      for (const [field, column] of Object.entries(authenticatorUpdateColumns)) {
        const value = fields[field as keyof typeof authenticatorUpdateColumns]
        if (value === undefined) continue
        values.push(value)
        sets.push(`${column} = $${values.length}`)
      }
      const sql = sets.length
        ? `update ${t.authenticators} set ${sets.join(", ")} where credential_id = $1 returning *`
        : `select * from ${t.authenticators} where credential_id = $1`
      const row = await first("updateAuthenticator", sql, values)
      return row && toAuthenticator(row)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await first(
        "updateAuthenticatorCounter",
        `update ${t.authenticators} set counter = $2 where credential_id = $1 returning *`,
        [credentialID, newCounter],
      )
      if (!row) {
        throw new PostgresAdapterError(
          "updateAuthenticatorCounter",
          new Error(`no authenticator with credential id ${credentialID}`),
        )
      }
      return toAuthenticator(row)
    },

    async incrementCounter(key, expires) {
      // One upsert: the row lock taken by `on conflict do update` serialises concurrent callers.
      // A counter past its expiry starts again. Now and then a call also sweeps expired rows,
      // so the table stays as small as the live windows.
      const row = await first(
        "incrementCounter",
        `insert into ${t.counters} as c (key, count, expires) values ($1, 1, $2)
         on conflict (key) do update set
           count = case when c.expires <= now() then 1 else c.count + 1 end,
           expires = case when c.expires <= now() then excluded.expires else c.expires end
         returning count`,
        [key, expires],
      )
      if (Math.random() < 0.01) {
        await rows("incrementCounter", `delete from ${t.counters} where expires <= now()`, [])
      }
      return Number(row!.count)
    },

    async getCounter(key) {
      // The same clock as incrementCounter's: a row past its expiry is a counter that would
      // start again, so it reads as none (the sweep may not have removed it yet).
      const row = await first(
        "getCounter",
        `select count, expires from ${t.counters} where key = $1 and expires > now()`,
        [key],
      )
      return row && { count: Number(row.count), expires: new Date(row.expires as Date) }
    },
  }
}
