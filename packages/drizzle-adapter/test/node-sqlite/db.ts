/**
 * The README's node:sqlite setup, as an app writes it: Drizzle has no node:sqlite driver, so its
 * `sqlite-proxy` runs each query on a `DatabaseSync`, and each batch in one transaction (the
 * adapter's all-or-nothing writes go through the batch).
 */
import { drizzle } from "drizzle-orm/sqlite-proxy"
import type { SyncDatabase } from "./node-sqlite.js"

type Method = "run" | "all" | "values" | "get"

export function nodeSqliteDrizzle(sqlite: SyncDatabase) {
  function query(sql: string, params: unknown[], method: Method) {
    const statement = sqlite.prepare(sql)
    if (method === "run") {
      statement.run(...params)
      return { rows: [] }
    }
    // Drizzle reads rows as arrays: a join's columns of the same name stay apart.
    statement.setReturnArrays(true)
    // `get` answers one row (an array), or undefined when there is none.
    const rows = method === "get" ? statement.get(...params) : statement.all(...params)
    return { rows: rows as any[] }
  }

  return drizzle(
    async (sql, params, method) => query(sql, params, method),
    async (queries) => {
      sqlite.exec("begin immediate")
      try {
        const results = queries.map(({ sql, params, method }) => query(sql, params, method))
        sqlite.exec("commit")
        return results
      } catch (error) {
        sqlite.exec("rollback")
        throw error
      }
    },
  )
}
