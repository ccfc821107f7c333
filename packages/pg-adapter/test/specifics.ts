/**
 * What the conformance suite cannot see from outside, checked on PGlite and on a real server:
 * the schema, that migrate is idempotent, that every statement is parameterised and finds its
 * rows through an index, and that the session read and the token use are one statement each.
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"

export interface SpecificsSetup {
  /** The client the adapter uses (a PGlite, or a pg.Pool). */
  client: Queryable
  /** One connection, for session settings (`enable_seqscan`): the PGlite, or a pg.Client. */
  connection: Queryable
}

interface Statement {
  text: string
  params: unknown[]
}

/** A client that records every statement it is given. */
function recording(client: Queryable) {
  const statements: Statement[] = []
  const recorder: Queryable = {
    query(text, params = []) {
      statements.push({ text, params })
      return client.query(text, params)
    },
  }
  return { recorder, statements }
}

const id = (prefix: string) => `${prefix}-${randomUUID()}`

export function runPostgresSpecifics(name: string, get: () => SpecificsSetup) {
  describe(`${name}: PostgreSQL specifics`, () => {
    it("migrate is idempotent and keeps the data", async () => {
      const { client } = get()
      const adapter = PostgresAdapter(client)
      const user = { id: id("user"), email: `${id("m")}@example.com`, emailVerified: null }
      await adapter.createUser(user)
      await migrate(client)
      await migrate(client)
      expect(await adapter.getUser(user.id)).toMatchObject(user)
    })

    it("creates the columns with the types of the design", async () => {
      const { client } = get()
      const { rows } = await client.query(
        `select table_name, column_name, data_type from information_schema.columns
         where table_schema = current_schema() and table_name = any($1)`,
        [["users", "accounts", "sessions", "verification_tokens", "authenticators"]],
      )
      const types = Object.fromEntries(
        (rows as { table_name: string; column_name: string; data_type: string }[]).map((r) => [
          `${r.table_name}.${r.column_name}`,
          r.data_type,
        ]),
      )
      expect(types).toMatchObject({
        "users.id": "text",
        "users.email_verified": "timestamp with time zone",
        "accounts.expires_at": "bigint",
        "accounts.token_type": "text",
        "accounts.authorization_details": "jsonb",
        "sessions.session_token": "text",
        "sessions.expires": "timestamp with time zone",
        "sessions.id": "text",
        "sessions.user_agent": "text",
        "sessions.client_address": "text",
        "sessions.created_at": "timestamp with time zone",
        "sessions.last_seen_at": "timestamp with time zone",
        "verification_tokens.expires": "timestamp with time zone",
        "authenticators.credential_id": "text",
        "authenticators.counter": "bigint",
        "authenticators.credential_backed_up": "boolean",
      })
    })

    it("rejects a second user with the same email (unique)", async () => {
      const adapter = PostgresAdapter(get().client)
      const email = `${id("dup")}@example.com`
      await adapter.createUser({ id: id("user"), email, emailVerified: null })
      const error = await adapter
        .createUser({ id: id("user"), email, emailVerified: null })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect(error).toMatchObject({ name: "PostgresAdapterError", code: "23505" })
      expect((error as Error).message).toMatch(/^@latch\/pg-adapter: createUser failed: /)
    })

    it("takes any number of users without an email: null, or empty stored as null", async () => {
      const { client } = get()
      const adapter = PostgresAdapter(client)
      const ids = [id("x-user"), id("x-user"), id("x-user"), id("x-user")]
      const noEmail = [null, null, "", "  "] as unknown as string[]
      for (const [i, userId] of ids.entries()) {
        const created = await adapter.createUser({
          id: userId,
          email: noEmail[i]!,
          emailVerified: null,
          name: `No email ${i}`,
        })
        expect(created.email).toBeNull()
      }
      // An update to an empty address clears it too.
      const withEmail = { id: id("user"), email: `${id("e")}@example.com`, emailVerified: null }
      await adapter.createUser(withEmail)
      expect((await adapter.updateUser({ id: withEmail.id, email: "" })).email).toBeNull()
      const { rows } = await client.query(
        "select count(*)::int as n from users where id = any($1) and email is null",
        [[...ids, withEmail.id]],
      )
      expect((rows as { n: number }[])[0]!.n).toBe(5)
    })

    it("createUser without an id: the database makes a UUID, as users.id's default does for SQL", async () => {
      const { client } = get()
      const adapter = PostgresAdapter(client)
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      const seeded = await adapter.createUser({ email: `${id("seed")}@example.com` })
      expect(seeded.id).toMatch(uuid)
      expect(await adapter.getUser(seeded.id)).toMatchObject({ email: seeded.email })
      // An empty id is no id; a given one is kept.
      const empty = await adapter.createUser({ id: "", email: "" })
      expect(empty.id).toMatch(uuid)
      expect(empty.id).not.toBe(seeded.id)
      const given = id("user")
      expect((await adapter.createUser({ id: given, email: `${given}@example.com` })).id).toBe(
        given,
      )
      // And a row inserted by hand.
      const { rows } = await client.query(
        "insert into users (name) values ('Seeded by SQL') returning id",
        [],
      )
      expect((rows as { id: string }[])[0]!.id).toMatch(uuid)
    })

    it("migrate gives users.id of an earlier table its default, without touching its rows", async () => {
      const { client } = get()
      const schema = `old_users_${randomUUID().replaceAll("-", "")}`
      await client.query(`create schema ${schema}`, [])
      // The users table as @latch/pg-adapter 0.1 made it: no default.
      await client.query(
        `create table ${schema}.users (id text primary key, name text, email text unique,
           email_verified timestamptz, image text)`,
        [],
      )
      await client.query(`insert into ${schema}.users (id, name) values ('kept-1', 'Kept')`, [])
      await migrate(client, { schema })
      await migrate(client, { schema })
      const { rows } = await client.query(
        `insert into ${schema}.users (name) values ('New') returning id`,
        [],
      )
      expect((rows as { id: string }[])[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
      const kept = await PostgresAdapter(client, { schema }).getUser("kept-1")
      expect(kept).toMatchObject({ id: "kept-1", name: "Kept" })
      await client.query(`drop schema ${schema} cascade`, [])
    })

    it("getSessionAndUser is one statement; useVerificationToken one delete … returning", async () => {
      const { recorder, statements } = recording(get().client)
      const adapter = PostgresAdapter(recorder)
      const user = { id: id("user"), email: `${id("s")}@example.com`, emailVerified: null }
      await adapter.createUser(user)
      await adapter.createSession({ sessionToken: id("s"), userId: user.id, expires: new Date() })
      await adapter.createVerificationToken({
        identifier: user.email,
        token: "h",
        expires: new Date(),
      })

      statements.length = 0
      await adapter.getSessionAndUser(id("nothing"))
      expect(statements).toHaveLength(1)
      expect(statements[0]!.text).toMatch(/\bjoin\b/)

      statements.length = 0
      expect(await adapter.useVerificationToken({ identifier: user.email, token: "h" })).not.toBe(
        null,
      )
      expect(statements).toHaveLength(1)
      expect(statements[0]!.text).toMatch(/^\s*delete from .* returning \*$/s)
    })

    it("sends values as parameters only, never inside the SQL", async () => {
      const { recorder, statements } = recording(get().client)
      const adapter = PostgresAdapter(recorder)
      const hostile = `o'brien"; drop table users; --${randomUUID()}`
      const user = {
        id: hostile,
        email: `${hostile}@example.com`,
        name: hostile,
        emailVerified: null,
      }
      await adapter.createUser(user)
      await adapter.updateUser({ id: hostile, image: hostile })
      await adapter.linkAccount({
        userId: hostile,
        type: "oauth",
        provider: hostile,
        providerAccountId: hostile,
        access_token: hostile,
      })
      await adapter.getUserByAccount({ provider: hostile, providerAccountId: hostile })
      await adapter.createSession({ sessionToken: hostile, userId: hostile, expires: new Date() })
      await adapter.getSessionAndUser(hostile)
      await adapter.createVerificationToken({
        identifier: hostile,
        token: hostile,
        expires: new Date(),
      })
      await adapter.useVerificationToken({ identifier: hostile, token: hostile })
      expect(await adapter.getUser(hostile)).toMatchObject({ ...user, image: hostile })
      await adapter.deleteUser(hostile)

      expect(statements.length).toBeGreaterThan(9)
      for (const { text, params } of statements) {
        expect(text).not.toContain("brien")
        expect(params.some((p) => typeof p === "string" && p.includes(hostile))).toBe(true)
      }
    })

    it("finds every row through an index", async () => {
      const { connection } = get()
      const { recorder, statements } = recording(connection)
      const adapter = PostgresAdapter(recorder)
      const user = { id: id("user"), email: `${id("i")}@example.com`, emailVerified: null }
      const account = {
        userId: user.id,
        type: "oauth" as const,
        provider: "github",
        providerAccountId: id("a"),
      }
      const session = { sessionToken: id("s"), userId: user.id, expires: new Date() }
      const token = { identifier: user.email, token: id("t"), expires: new Date() }
      const authenticator = {
        credentialID: id("c"),
        userId: user.id,
        providerAccountId: id("p"),
        credentialPublicKey: "pk",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      }
      await adapter.createUser(user)
      await adapter.linkAccount(account)
      await adapter.createSession(session)
      await adapter.createVerificationToken(token)
      await adapter.createAuthenticator(authenticator)
      statements.length = 0

      await adapter.getUser(user.id)
      await adapter.getUserByEmail(user.email)
      await adapter.getUserByAccount(account)
      await adapter.getAccount(account.providerAccountId, account.provider)
      await adapter.updateUser({ id: user.id, name: "x" })
      await adapter.getSessionAndUser(session.sessionToken)
      await adapter.updateSession({ sessionToken: session.sessionToken, expires: new Date() })
      await adapter.listSessionsByUserId(user.id)
      await adapter.deleteSessionById(user.id, randomUUID())
      await adapter.deleteSession(session.sessionToken)
      await adapter.deleteSessionsByUserId(user.id)
      await adapter.useVerificationToken(token)
      await adapter.getAuthenticator(authenticator.credentialID)
      await adapter.listAuthenticatorsByUserId(user.id)
      await adapter.updateAuthenticatorCounter(authenticator.credentialID, 1)
      await adapter.unlinkAccount(account)
      await adapter.deleteUser(user.id)
      const lookups = statements.filter(({ text }) => !/^\s*insert/.test(text))
      expect(lookups).toHaveLength(17)

      // With sequential scans priced out, a plan still shows one only where no index serves.
      await connection.query("set enable_seqscan = off")
      try {
        for (const { text, params } of lookups) {
          const { rows } = await connection.query(`explain ${text}`, params)
          const plan = (rows as Record<string, string>[]).map((row) => row["QUERY PLAN"]).join("\n")
          expect(plan, `${text}\n${plan}`).not.toMatch(/Seq Scan/)
        }
      } finally {
        await connection.query("reset enable_seqscan")
      }
    })
  })
}
