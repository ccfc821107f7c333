/**
 * Password hashes in PostgreSQL, on PGlite and on a real server: the `passwords` table as
 * `migrate` makes it, the hash kept character for character, the upsert moving `updated_at`, the
 * cascade from users, index use, and `migrate` adding the table to a database made before it.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"
import { clients, useEmptyDatabase, onOneConnection, quoted } from "./clients.js"

/** A hash shaped like core's: `$scrypt$<parameters>$<salt>$<key>`, salt and key in base64. */
const newHash = () =>
  `$scrypt$ln=17,r=8,p=1$${randomBytes(16).toString("base64")}$${randomBytes(64).toString("base64")}`

describe.each(clients)("passwords on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  const adapter = () => PostgresAdapter(db().client)

  async function newUser() {
    return adapter().createUser({
      id: `user-${randomUUID()}`,
      email: `${randomUUID()}@x.test`,
      emailVerified: null,
    })
  }

  async function passwordRows(userId: string) {
    const { rows } = await db().client.query(
      "select user_id, hash, updated_at from passwords where user_id = $1",
      [userId],
    )
    return rows as { user_id: string; hash: string; updated_at: Date }[]
  }

  it("creates the table: text key referencing users with on delete cascade, hash, updated_at", async () => {
    const { rows: columns } = await db().client.query(
      `select column_name, data_type, is_nullable from information_schema.columns
       where table_schema = current_schema() and table_name = 'passwords'
       order by ordinal_position`,
    )
    expect(columns).toEqual([
      { column_name: "user_id", data_type: "text", is_nullable: "NO" },
      { column_name: "hash", data_type: "text", is_nullable: "NO" },
      { column_name: "updated_at", data_type: "timestamp with time zone", is_nullable: "NO" },
    ])
    const { rows: constraints } = await db().client.query(
      `select contype as type, confrelid::regclass::text as target, confdeltype as on_delete
       from pg_constraint where conrelid = 'passwords'::regclass and contype in ('f', 'p')
       order by contype`,
    )
    expect(constraints).toEqual([
      { type: "f", target: "users", on_delete: "c" },
      { type: "p", target: "-", on_delete: " " },
    ])
  })

  it("getPasswordHash is null for a user without a password and for an unknown user", async () => {
    const user = await newUser()
    expect(await adapter().getPasswordHash(user.id)).toBeNull()
    expect(await adapter().getPasswordHash(`nobody-${randomUUID()}`)).toBeNull()
  })

  it("stores the hash verbatim and returns it", async () => {
    const user = await newUser()
    const hash = newHash()
    await adapter().setPasswordHash(user.id, hash)
    expect(await adapter().getPasswordHash(user.id)).toBe(hash)
    const [row] = await passwordRows(user.id)
    expect(row!.hash).toBe(hash)
    expect(row!.updated_at).toBeInstanceOf(Date)

    // Nothing is trimmed, escaped or normalised: quotes, backslashes, spaces, non-ASCII.
    const odd = ` $x$'quoted' "double" back\\slash\ttab é\u0301 🔑 `
    await adapter().setPasswordHash(user.id, odd)
    expect(await adapter().getPasswordHash(user.id)).toBe(odd)
    expect((await passwordRows(user.id))[0]!.hash).toBe(odd)
  })

  it("setPasswordHash again replaces the hash and moves updated_at", async () => {
    const user = await newUser()
    const other = await newUser()
    const theirs = newHash()
    await adapter().setPasswordHash(user.id, newHash())
    await adapter().setPasswordHash(other.id, theirs)
    // Backdated, so that the second write's time is surely later.
    await db().client.query(
      "update passwords set updated_at = now() - interval '1 day' where user_id = $1",
      [user.id],
    )
    const before = (await passwordRows(user.id))[0]!.updated_at

    const replacement = newHash()
    await adapter().setPasswordHash(user.id, replacement)
    const rows = await passwordRows(user.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.hash).toBe(replacement)
    expect(rows[0]!.updated_at.getTime()).toBeGreaterThan(before.getTime() + 23 * 3_600_000)
    expect(await adapter().getPasswordHash(other.id)).toBe(theirs)
  })

  it("deletePasswordHash returns true when it deleted the password, then false", async () => {
    const user = await newUser()
    const other = await newUser()
    const theirs = newHash()
    await adapter().setPasswordHash(user.id, newHash())
    await adapter().setPasswordHash(other.id, theirs)

    expect(await adapter().deletePasswordHash(user.id)).toBe(true)
    expect(await passwordRows(user.id)).toEqual([])
    expect(await adapter().getPasswordHash(user.id)).toBeNull()
    expect(await adapter().deletePasswordHash(user.id)).toBe(false)
    expect(await adapter().deletePasswordHash(`nobody-${randomUUID()}`)).toBe(false)
    // The user stays; the other password too.
    expect(await adapter().getUser(user.id)).toEqual(user)
    expect(await adapter().getPasswordHash(other.id)).toBe(theirs)
  })

  it("deleting the user deletes the password, through deleteUser or plain SQL", async () => {
    const viaAdapter = await newUser()
    const viaSql = await newUser()
    await adapter().setPasswordHash(viaAdapter.id, newHash())
    await adapter().setPasswordHash(viaSql.id, newHash())

    await adapter().deleteUser(viaAdapter.id)
    await db().client.query("delete from users where id = $1", [viaSql.id])
    expect(await passwordRows(viaAdapter.id)).toEqual([])
    expect(await passwordRows(viaSql.id)).toEqual([])
  })

  it("setPasswordHash of an unknown user rejects on the foreign key and stores nothing", async () => {
    const id = `nobody-${randomUUID()}`
    await expect(adapter().setPasswordHash(id, newHash())).rejects.toMatchObject({
      name: "PostgresAdapterError",
      code: "23503",
      message: expect.stringMatching(/^@latch\/pg-adapter: setPasswordHash failed: /),
    })
    expect(await passwordRows(id)).toEqual([])
  })

  it("sends the hash as a parameter only, and finds the row through the primary key", async () => {
    const user = await newUser()
    const hash = newHash()
    await onOneConnection(db().client, async (connection) => {
      const statements: { text: string; params: unknown[] }[] = []
      const recorder: Queryable = {
        query(text, params = []) {
          statements.push({ text, params })
          return connection.query(text, params)
        },
      }
      const recorded = PostgresAdapter(recorder)
      await recorded.setPasswordHash(user.id, hash)
      await recorded.getPasswordHash(user.id)
      await recorded.deletePasswordHash(user.id)
      expect(statements).toHaveLength(3)
      for (const { text, params } of statements) {
        expect(text).not.toContain(user.id)
        expect(text).not.toContain("scrypt")
        expect(params[0]).toBe(user.id)
      }
      expect(statements[0]!.params).toEqual([user.id, hash])

      // With sequential scans priced out, a plan shows one only where no index serves.
      await connection.query("set enable_seqscan = off")
      try {
        for (const { text, params } of statements.slice(1)) {
          const { rows } = await connection.query(`explain ${text}`, params)
          const plan = (rows as Record<string, string>[]).map((row) => row["QUERY PLAN"]).join("\n")
          expect(plan, `${text}\n${plan}`).not.toMatch(/Seq Scan/)
        }
      } finally {
        await connection.query("reset enable_seqscan")
      }
    })
  })

  it("a second migrate is harmless: the table and its rows stay", async () => {
    const user = await newUser()
    const hash = newHash()
    await adapter().setPasswordHash(user.id, hash)
    const [before] = await passwordRows(user.id)
    await migrate(db().client)
    await migrate(db().client)
    expect(await passwordRows(user.id)).toEqual([before])
    expect(await adapter().getPasswordHash(user.id)).toBe(hash)
  })

  it("migrate adds the table to a database made before it, in the schema given", async () => {
    // What the previous version of migrate left: everything but the passwords table. A schema of
    // its own keeps this database apart from the other tests', and checks the qualified names.
    const schema = `before "passwords" ${randomUUID().slice(0, 8)}`
    const options = { schema }
    await migrate(db().client, options)
    await db().client.query(`drop table ${quoted(schema)}.passwords`)
    const old = PostgresAdapter(db().client, options)
    const user = await old.createUser({ id: "old-user", email: "old@x.test", emailVerified: null })
    const session = await old.createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
    })
    await expect(old.getPasswordHash(user.id)).rejects.toMatchObject({ code: "42P01" })

    await migrate(db().client, options)
    const upgraded = PostgresAdapter(db().client, options)
    expect(await upgraded.getSessionAndUser(session.sessionToken)).toEqual({ session, user })
    expect(await upgraded.getPasswordHash(user.id)).toBeNull()
    const hash = newHash()
    await upgraded.setPasswordHash(user.id, hash)
    expect(await upgraded.getPasswordHash(user.id)).toBe(hash)
    // Not in the default schema's table.
    expect(await passwordRows(user.id)).toEqual([])

    // The new table's foreign key points at this schema's users.
    await upgraded.deleteUser(user.id)
    expect(await upgraded.getPasswordHash(user.id)).toBeNull()
  })
})
