// The throwaway MariaDB server keeps its temporary tables in its own directory: in the system's
// /tmp, other work on the machine could remove a file its installer still holds.
import { tmpdir } from "node:os"
import mysql from "mysql2/promise"
import { expect, it } from "vitest"
import { startMariadb } from "../index.mjs"

it("the MariaDB server's temporary directory is its own, not the system's", async () => {
  const server = await startMariadb()
  try {
    const connection = await mysql.createConnection(server.uri)
    const [rows] = await connection.query("select @@tmpdir as tmpdir")
    await connection.end()
    const dir = rows[0].tmpdir
    expect(dir).not.toBe(tmpdir())
    expect(dir).toMatch(/latch-mariadb-[^/]+\/tmp$/)
  } finally {
    await server.destroy()
  }
}, 60_000)
