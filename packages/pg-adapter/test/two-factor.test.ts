/**
 * Second factors and recovery codes in PostgreSQL, on PGlite and on a real server: the
 * `two_factors` and `recovery_codes` tables as `migrate` makes them, the sealed secret kept
 * character for character, replacing a factor or a whole set of codes (in one transaction, one set
 * left of concurrent replacements), `deleteTwoFactor` taking the codes with it, a code used once
 * (one of 10 concurrent uses wins) and only by its user, the cascade from users, parameters and
 * index use, and `migrate` adding the tables to a database made before them.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { AdapterTwoFactor } from "@latch/core/adapters"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"
import { clients, useEmptyDatabase, onOneConnection, quoted } from "./clients.js"

const base64url = (bytes: number) => randomBytes(bytes).toString("base64url")

/** A secret shaped like core's: a compact JWE (`dir`, A256GCM) sealing the TOTP secret. */
const newSecret = () =>
  `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${base64url(12)}.${base64url(80)}.${base64url(16)}`

/** Recovery code hashes shaped like core's: HMAC-SHA256 in lowercase hex. */
const newHashes = (count = 10) =>
  Array.from({ length: count }, () => randomBytes(32).toString("hex"))

describe.each(clients)("two-factor on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  const adapter = () => PostgresAdapter(db().client)

  async function newUser() {
    return adapter().createUser({
      id: `user-${randomUUID()}`,
      email: `${randomUUID()}@x.test`,
      emailVerified: null,
    })
  }

  /** A second factor enabled a minute ago (to the millisecond, as `timestamptz` keeps it). */
  const newTwoFactor = (userId: string): AdapterTwoFactor => ({
    userId,
    secret: newSecret(),
    enabledAt: new Date(Date.now() - 60_000),
  })

  async function codeRows(userId: string) {
    const { rows } = await db().client.query(
      "select code_hash from recovery_codes where user_id = $1 order by code_hash",
      [userId],
    )
    return (rows as { code_hash: string }[]).map((row) => row.code_hash)
  }

  async function twoFactorRows(userId: string) {
    const { rows } = await db().client.query(
      "select user_id, secret, enabled_at from two_factors where user_id = $1",
      [userId],
    )
    return rows as { user_id: string; secret: string; enabled_at: Date }[]
  }

  it("creates the tables: keys and foreign keys to users with on delete cascade", async () => {
    const columnsOf = async (table: string) =>
      (
        await db().client.query(
          `select column_name, data_type, is_nullable from information_schema.columns
           where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
          [table],
        )
      ).rows
    const constraintsOf = async (table: string) =>
      (
        await db().client.query(
          `select contype as type, confrelid::regclass::text as target, confdeltype as on_delete,
             (select array_agg(attname order by attnum)::text[] from pg_attribute
              where attrelid = conrelid and attnum = any(conkey)) as columns
           from pg_constraint where conrelid = $1::regclass and contype in ('f', 'p')
           order by contype`,
          [table],
        )
      ).rows

    expect(await columnsOf("two_factors")).toEqual([
      { column_name: "user_id", data_type: "text", is_nullable: "NO" },
      { column_name: "secret", data_type: "text", is_nullable: "NO" },
      { column_name: "enabled_at", data_type: "timestamp with time zone", is_nullable: "NO" },
    ])
    expect(await constraintsOf("two_factors")).toEqual([
      { type: "f", target: "users", on_delete: "c", columns: ["user_id"] },
      { type: "p", target: "-", on_delete: " ", columns: ["user_id"] },
    ])
    expect(await columnsOf("recovery_codes")).toEqual([
      { column_name: "user_id", data_type: "text", is_nullable: "NO" },
      { column_name: "code_hash", data_type: "text", is_nullable: "NO" },
    ])
    expect(await constraintsOf("recovery_codes")).toEqual([
      { type: "f", target: "users", on_delete: "c", columns: ["user_id"] },
      { type: "p", target: "-", on_delete: " ", columns: ["user_id", "code_hash"] },
    ])
  })

  it("getTwoFactor is null for a user without one and for an unknown user", async () => {
    const user = await newUser()
    expect(await adapter().getTwoFactor(user.id)).toBeNull()
    expect(await adapter().getTwoFactor(`nobody-${randomUUID()}`)).toBeNull()
  })

  it("stores the secret verbatim and enabledAt as a Date, and returns them", async () => {
    const user = await newUser()
    const other = await newUser()
    const twoFactor = newTwoFactor(user.id)
    await adapter().setTwoFactor(twoFactor)
    const found = await adapter().getTwoFactor(user.id)
    expect(found).toEqual(twoFactor)
    expect(found!.enabledAt).toBeInstanceOf(Date)
    expect(await twoFactorRows(user.id)).toEqual([
      { user_id: user.id, secret: twoFactor.secret, enabled_at: twoFactor.enabledAt },
    ])
    expect(await adapter().getTwoFactor(other.id)).toBeNull()

    // Nothing is trimmed, escaped or normalised: quotes, backslashes, spaces, non-ASCII.
    const odd = { ...twoFactor, secret: ` $x$'quoted' "double" back\\slash\ttab é\u0301 🔑 ` }
    await adapter().setTwoFactor(odd)
    expect(await adapter().getTwoFactor(user.id)).toEqual(odd)
  })

  it("setTwoFactor again replaces the factor (one row per user); the codes stay", async () => {
    const user = await newUser()
    const other = await newUser()
    const theirs = newTwoFactor(other.id)
    await adapter().setTwoFactor(newTwoFactor(user.id))
    await adapter().setTwoFactor(theirs)
    const hashes = newHashes()
    await adapter().setRecoveryCodes(user.id, hashes)

    const replacement = { ...newTwoFactor(user.id), enabledAt: new Date() }
    await adapter().setTwoFactor(replacement)
    expect(await adapter().getTwoFactor(user.id)).toEqual(replacement)
    expect(await twoFactorRows(user.id)).toHaveLength(1)
    expect(await adapter().getTwoFactor(other.id)).toEqual(theirs)
    // Core gives a new factor a new set itself: setTwoFactor leaves the codes alone.
    expect(await codeRows(user.id)).toEqual([...hashes].sort())
  })

  it("deleteTwoFactor removes the factor and the user's codes: true, then false", async () => {
    const user = await newUser()
    const other = await newUser()
    const theirs = newTwoFactor(other.id)
    const theirCodes = newHashes()
    await adapter().setTwoFactor(newTwoFactor(user.id))
    await adapter().setRecoveryCodes(user.id, newHashes())
    await adapter().setTwoFactor(theirs)
    await adapter().setRecoveryCodes(other.id, theirCodes)

    expect(await adapter().deleteTwoFactor(user.id)).toBe(true)
    expect(await adapter().getTwoFactor(user.id)).toBeNull()
    expect(await twoFactorRows(user.id)).toEqual([])
    expect(await codeRows(user.id)).toEqual([])
    expect(await adapter().deleteTwoFactor(user.id)).toBe(false)
    expect(await adapter().deleteTwoFactor(`nobody-${randomUUID()}`)).toBe(false)
    // The user stays; the other user's factor and codes too.
    expect(await adapter().getUser(user.id)).toEqual(user)
    expect(await adapter().getTwoFactor(other.id)).toEqual(theirs)
    expect(await codeRows(other.id)).toEqual([...theirCodes].sort())
  })

  it("deleteTwoFactor of a user with codes but no factor removes the codes, and is false", async () => {
    const user = await newUser()
    const [hash] = newHashes(1) as [string]
    await adapter().setRecoveryCodes(user.id, [hash])
    expect(await adapter().deleteTwoFactor(user.id)).toBe(false)
    expect(await codeRows(user.id)).toEqual([])
    expect(await adapter().useRecoveryCode(user.id, hash)).toBe(false)
  })

  it("useRecoveryCode uses each code once; setRecoveryCodes replaces the whole set", async () => {
    const user = await newUser()
    const first = newHashes()
    await adapter().setRecoveryCodes(user.id, first)
    expect(await codeRows(user.id)).toEqual([...first].sort())

    const [used, ...unused] = first as [string, ...string[]]
    expect(await adapter().useRecoveryCode(user.id, used)).toBe(true)
    expect(await adapter().useRecoveryCode(user.id, used)).toBe(false)
    expect(await adapter().useRecoveryCode(user.id, randomBytes(32).toString("hex"))).toBe(false)
    expect(await codeRows(user.id)).toEqual([...unused].sort())

    // A new set: the old codes, used or not, stop working; each new one works once.
    const second = newHashes()
    await adapter().setRecoveryCodes(user.id, second)
    expect(await codeRows(user.id)).toEqual([...second].sort())
    for (const hash of unused) expect(await adapter().useRecoveryCode(user.id, hash)).toBe(false)
    for (const hash of second) expect(await adapter().useRecoveryCode(user.id, hash)).toBe(true)
    for (const hash of second) expect(await adapter().useRecoveryCode(user.id, hash)).toBe(false)
    expect(await codeRows(user.id)).toEqual([])
  })

  it("setRecoveryCodes keeps a set that overlaps the old one, a code given twice once, and [] clears", async () => {
    const user = await newUser()
    const [kept, dropped, added] = newHashes(3) as [string, string, string]
    await adapter().setRecoveryCodes(user.id, [kept, dropped])
    await adapter().setRecoveryCodes(user.id, [kept, added, added])
    expect(await codeRows(user.id)).toEqual([kept, added].sort())
    await adapter().setRecoveryCodes(user.id, [])
    expect(await codeRows(user.id)).toEqual([])
    expect(await adapter().useRecoveryCode(user.id, kept)).toBe(false)
  })

  it("useRecoveryCode of another user's code is false and leaves the code to them", async () => {
    const user = await newUser()
    const other = await newUser()
    const mine = newHashes()
    const theirs = newHashes()
    await adapter().setRecoveryCodes(user.id, mine)
    await adapter().setRecoveryCodes(other.id, theirs)

    for (const hash of theirs) expect(await adapter().useRecoveryCode(user.id, hash)).toBe(false)
    expect(await adapter().useRecoveryCode(`nobody-${randomUUID()}`, theirs[0]!)).toBe(false)
    expect(await codeRows(other.id)).toEqual([...theirs].sort())
    expect(await codeRows(user.id)).toEqual([...mine].sort())
    expect(await adapter().useRecoveryCode(other.id, theirs[0]!)).toBe(true)

    // Setting one user's codes leaves everyone else's alone, even the same hashes.
    await adapter().setRecoveryCodes(user.id, theirs)
    expect(await codeRows(other.id)).toEqual(theirs.slice(1).sort())
  })

  it("of 10 concurrent useRecoveryCode calls for one code, exactly one is true", async () => {
    const user = await newUser()
    const hashes = newHashes()
    await adapter().setRecoveryCodes(user.id, hashes)
    const results = await Promise.all(
      Array.from({ length: 10 }, () => adapter().useRecoveryCode(user.id, hashes[3]!)),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await codeRows(user.id)).toHaveLength(9)
  })

  it("of 10 concurrent setRecoveryCodes, one whole set is left, never a mix", async () => {
    const user = await newUser()
    await adapter().setRecoveryCodes(user.id, newHashes())
    const sets = Array.from({ length: 10 }, () => newHashes())
    await Promise.all(sets.map((set) => adapter().setRecoveryCodes(user.id, set)))
    const left = await codeRows(user.id)
    expect(sets.map((set) => [...set].sort())).toContainEqual(left)
  })

  it("a setRecoveryCodes that fails keeps the old set (one transaction)", async () => {
    const user = await newUser()
    const hashes = newHashes()
    await adapter().setRecoveryCodes(user.id, hashes)
    // A null among the hashes fails on `not null` after the old codes were deleted.
    await expect(
      adapter().setRecoveryCodes(user.id, [...newHashes(3), null as unknown as string]),
    ).rejects.toMatchObject({
      name: "PostgresAdapterError",
      code: "23502",
      message: expect.stringMatching(/^@latch\/pg-adapter: setRecoveryCodes failed: /),
    })
    expect(await codeRows(user.id)).toEqual([...hashes].sort())
  })

  it("setTwoFactor and setRecoveryCodes of an unknown user reject on the foreign key", async () => {
    const id = `nobody-${randomUUID()}`
    for (const [method, call] of [
      ["setTwoFactor", () => adapter().setTwoFactor(newTwoFactor(id))],
      ["setRecoveryCodes", () => adapter().setRecoveryCodes(id, newHashes())],
    ] as const) {
      await expect(call()).rejects.toMatchObject({
        name: "PostgresAdapterError",
        code: "23503",
        message: expect.stringMatching(new RegExp(`^@latch/pg-adapter: ${method} failed: `)),
      })
    }
    expect(await twoFactorRows(id)).toEqual([])
    expect(await codeRows(id)).toEqual([])
  })

  it("deleting the user deletes the factor and the codes, through deleteUser or plain SQL", async () => {
    const viaAdapter = await newUser()
    const viaSql = await newUser()
    const other = await newUser()
    for (const user of [viaAdapter, viaSql, other]) {
      await adapter().setTwoFactor(newTwoFactor(user.id))
      await adapter().setRecoveryCodes(user.id, newHashes())
    }

    await adapter().deleteUser(viaAdapter.id)
    await db().client.query("delete from users where id = $1", [viaSql.id])
    for (const user of [viaAdapter, viaSql]) {
      expect(await twoFactorRows(user.id)).toEqual([])
      expect(await codeRows(user.id)).toEqual([])
    }
    expect(await twoFactorRows(other.id)).toHaveLength(1)
    expect(await codeRows(other.id)).toHaveLength(10)
  })

  it("sends values as parameters only, and finds rows through the primary keys", async () => {
    const user = await newUser()
    const twoFactor = newTwoFactor(user.id)
    const hashes = newHashes()
    await onOneConnection(db().client, async (connection) => {
      const statements: { text: string; params: unknown[] }[] = []
      const recorder: Queryable = {
        query(text, params = []) {
          statements.push({ text, params })
          return connection.query(text, params)
        },
      }
      const recorded = PostgresAdapter(recorder)
      await recorded.setTwoFactor(twoFactor)
      await recorded.getTwoFactor(user.id)
      await recorded.setRecoveryCodes(user.id, hashes)
      await recorded.useRecoveryCode(user.id, hashes[0]!)
      await recorded.deleteTwoFactor(user.id)
      // One statement each.
      expect(statements).toHaveLength(5)
      for (const { text, params } of statements) {
        expect(text).not.toContain(user.id)
        expect(text).not.toContain(twoFactor.secret.slice(0, 20))
        for (const hash of hashes) expect(text).not.toContain(hash)
        expect(params[0]).toBe(user.id)
      }
      expect(statements[0]!.params).toEqual([user.id, twoFactor.secret, twoFactor.enabledAt])
      expect(statements[2]!.params).toEqual([user.id, hashes])
      expect(statements[3]!.text).toMatch(/^delete from .* returning user_id$/s)

      // With sequential scans priced out, a plan shows one only where no index serves.
      await connection.query("set enable_seqscan = off")
      try {
        for (const { text, params } of [statements[1]!, ...statements.slice(3)]) {
          const { rows } = await connection.query(`explain ${text}`, params)
          const plan = (rows as Record<string, string>[]).map((row) => row["QUERY PLAN"]).join("\n")
          expect(plan, `${text}\n${plan}`).not.toMatch(/Seq Scan/)
        }
      } finally {
        await connection.query("reset enable_seqscan")
      }
    })
  })

  it("a second migrate is harmless: the tables and their rows stay", async () => {
    const user = await newUser()
    const twoFactor = newTwoFactor(user.id)
    const hashes = newHashes()
    await adapter().setTwoFactor(twoFactor)
    await adapter().setRecoveryCodes(user.id, hashes)
    await migrate(db().client)
    await migrate(db().client)
    expect(await adapter().getTwoFactor(user.id)).toEqual(twoFactor)
    expect(await codeRows(user.id)).toEqual([...hashes].sort())
  })

  it("migrate adds the tables to a database made before them, in the schema given", async () => {
    // What the previous version of migrate left: everything but the two tables and the function.
    // A schema of its own keeps this database apart from the other tests', and checks the
    // qualified names.
    const schema = `before "two-factor" ${randomUUID().slice(0, 8)}`
    const options = { schema }
    await migrate(db().client, options)
    await db().client.query(
      `drop table ${quoted(schema)}.recovery_codes, ${quoted(schema)}.two_factors`,
    )
    await db().client.query(`drop function ${quoted(schema)}.latch_set_recovery_codes`)
    const old = PostgresAdapter(db().client, options)
    const user = await old.createUser({ id: "old-user", email: "old@x.test", emailVerified: null })
    const hash = newHashes(1)[0]!
    await old.setPasswordHash(user.id, hash)
    await expect(old.getTwoFactor(user.id)).rejects.toMatchObject({ code: "42P01" })
    await expect(old.setRecoveryCodes(user.id, [hash])).rejects.toMatchObject({ code: "42883" })

    await migrate(db().client, options)
    const upgraded = PostgresAdapter(db().client, options)
    expect(await upgraded.getPasswordHash(user.id)).toBe(hash)
    expect(await upgraded.getTwoFactor(user.id)).toBeNull()
    const twoFactor = newTwoFactor(user.id)
    await upgraded.setTwoFactor(twoFactor)
    await upgraded.setRecoveryCodes(user.id, [hash])
    expect(await upgraded.getTwoFactor(user.id)).toEqual(twoFactor)
    // Not in the default schema's tables.
    expect(await twoFactorRows(user.id)).toEqual([])
    expect(await codeRows(user.id)).toEqual([])
    expect(await upgraded.useRecoveryCode(user.id, hash)).toBe(true)

    // The new tables' foreign keys point at this schema's users.
    await upgraded.setRecoveryCodes(user.id, [hash])
    await upgraded.deleteUser(user.id)
    expect(await upgraded.getTwoFactor(user.id)).toBeNull()
    expect(await upgraded.useRecoveryCode(user.id, hash)).toBe(false)
  })
})
