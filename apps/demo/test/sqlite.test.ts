// The demo's SQLite file across releases: a file an older demo made (without the passkey
// columns a newer schema has) is brought to the schema on start, its rows kept.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createClient } from "@libsql/client"
import * as schema from "@latch/drizzle-adapter/sqlite"
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api"
import { afterEach, describe, expect, it } from "vitest"
import { openSqlite } from "../src/lib/server/sqlite.js"

const ADDED_COLUMNS = ["name", "createdAt", "lastUsedAt", "aaguid", "createdBy", "secondFactor"]

let dir: string
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function columns(file: string, table: string): Promise<string[]> {
  const client = createClient({ url: `file:${file}` })
  try {
    const info = await client.execute(`pragma table_info(${table})`)
    return info.rows.map((row) => String(row.name))
  } finally {
    client.close()
  }
}

describe("the demo's SQLite database", () => {
  it("creates Latch's tables in a new file", async () => {
    dir = mkdtempSync(join(tmpdir(), "latch-demo-sqlite-"))
    const file = join(dir, "demo.db")
    const { adapter, close } = await openSqlite({ LATCH_DEMO_SQLITE_FILE: file })
    const user = await adapter.createUser!({
      id: "u1",
      email: "a@example.com",
      emailVerified: null,
    })
    expect(await adapter.getUser!(user.id)).toMatchObject({ email: "a@example.com" })
    await close()
    expect(await columns(file, "authenticator")).toEqual(expect.arrayContaining(ADDED_COLUMNS))
  })

  it("adds the passkey columns to a file an older demo made, keeping its users and passkeys", async () => {
    dir = mkdtempSync(join(tmpdir(), "latch-demo-sqlite-"))
    const file = join(dir, "demo.db")
    // The tables as an older demo left them: today's schema without the columns added since.
    const old = createClient({ url: `file:${file}` })
    await old.batch(
      await generateSQLiteMigration(
        await generateSQLiteDrizzleJson({}),
        await generateSQLiteDrizzleJson(schema),
      ),
      "write",
    )
    for (const column of ADDED_COLUMNS) {
      await old.execute(`alter table authenticator drop column "${column}"`)
    }
    await old.execute(`insert into user (id, email) values ('u1', 'old@example.com')`)
    await old.execute(
      `insert into authenticator ("credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp")
       values ('cred-1', 'u1', 'cred-1', 'key', 3, 'multiDevice', 1)`,
    )
    old.close()
    expect(await columns(file, "authenticator")).not.toContain("name")

    const { adapter, close } = await openSqlite({ LATCH_DEMO_SQLITE_FILE: file })
    try {
      expect(await columns(file, "authenticator")).toEqual(expect.arrayContaining(ADDED_COLUMNS))
      expect(await adapter.getUserByEmail!("old@example.com")).toMatchObject({ id: "u1" })
      const [passkey] = await adapter.listAuthenticatorsByUserId!("u1")
      expect(passkey).toMatchObject({ credentialID: "cred-1", counter: 3 })
      expect(passkey?.secondFactor ?? false).toBe(false)
      // The columns work: the passkey can be named now.
      await adapter.updateAuthenticator!("cred-1", { name: "Old key" })
      expect(await adapter.getAuthenticator!("cred-1")).toMatchObject({ name: "Old key" })
    } finally {
      await close()
    }
  })

  it("leaves an up-to-date file as it is", async () => {
    dir = mkdtempSync(join(tmpdir(), "latch-demo-sqlite-"))
    const file = join(dir, "demo.db")
    const first = await openSqlite({ LATCH_DEMO_SQLITE_FILE: file })
    await first.adapter.createUser!({ id: "u1", email: "a@example.com", emailVerified: null })
    await first.close()
    const before = await schemaText(file)
    const second = await openSqlite({ LATCH_DEMO_SQLITE_FILE: file })
    try {
      expect(await schemaText(file)).toBe(before)
      expect(await second.adapter.getUser!("u1")).toMatchObject({ email: "a@example.com" })
    } finally {
      await second.close()
    }
  })
})

async function schemaText(file: string): Promise<string> {
  const client = createClient({ url: `file:${file}` })
  try {
    const { rows } = await client.execute("select sql from sqlite_master order by name")
    return rows.map((row) => String(row.sql)).join("\n")
  } finally {
    client.close()
  }
}
