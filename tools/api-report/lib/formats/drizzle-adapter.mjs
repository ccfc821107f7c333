// @latch/drizzle-adapter's stored format: the tables its schema objects declare, per dialect
// (`/pg`, `/sqlite`, `/mysql`), as Drizzle itself reads them (`getTableConfig`): the SQL name and
// type of each column, nullability, defaults, keys and indexes. One fact a line, `key = value`.
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const DIALECTS = { pg: "pg-core", sqlite: "sqlite-core", mysql: "mysql-core" }

/** @param {string} packageDir */
export async function drizzleAdapterFormats(packageDir) {
  // drizzle-orm is the package's peer: resolved from the package, the copy its schema uses.
  const require = createRequire(join(packageDir, "package.json"))
  const facts = []
  for (const [dialect, core] of Object.entries(DIALECTS)) {
    const schema = await import(pathToFileURL(join(packageDir, "dist", dialect, "schema.js")).href)
    const { getTableConfig } = await import(require.resolve(`drizzle-orm/${core}`))
    const { is, Table } = await import(require.resolve("drizzle-orm"))
    for (const [exported, table] of Object.entries(schema)) {
      if (!is(table, Table)) continue
      const config = getTableConfig(table)
      const at = `${dialect}.${config.name}`
      facts.push(`${at}.export = ${exported}`)
      for (const column of config.columns) {
        const attributes = [column.getSQLType()]
        if (column.notNull) attributes.push("not null")
        if (column.primary) attributes.push("primary key")
        if (column.isUnique) attributes.push("unique")
        if (column.hasDefault) attributes.push("has default")
        facts.push(`${at}.column.${column.name} = ${attributes.join(" ")}`)
      }
      for (const key of config.primaryKeys ?? []) {
        facts.push(`${at}.primaryKey = ${key.columns.map((c) => c.name).join(", ")}`)
      }
      for (const key of config.foreignKeys ?? []) {
        const reference = key.reference()
        facts.push(
          `${at}.foreignKey.${reference.columns.map((c) => c.name).join(",")} = ` +
            `${getTableConfig(reference.foreignTable).name}(${reference.foreignColumns
              .map((c) => c.name)
              .join(", ")}) on delete ${key.onDelete ?? "no action"}`,
        )
      }
      for (const index of config.indexes ?? []) {
        const { name, columns, unique } = index.config
        const names = columns.map((c) => c.name ?? "(expression)").join(", ")
        facts.push(`${at}.index.${name} = ${unique ? "unique " : ""}(${names})`)
      }
      for (const constraint of config.uniqueConstraints ?? []) {
        facts.push(
          `${at}.unique.${constraint.getName?.() ?? constraint.name} = ` +
            `(${constraint.columns.map((c) => c.name).join(", ")})`,
        )
      }
    }
  }
  return facts
}
