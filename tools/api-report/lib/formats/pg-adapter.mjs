// @latch/pg-adapter's stored format: the tables, columns, keys and indexes that `migrate()`
// creates, read back from a real database (PGlite, in-process) rather than from the SQL text, so
// that a column added by a later `alter table` of the migration counts as much as one in a
// `create table`. One fact a line, `key = value`.
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/** @param {string} packageDir */
export async function pgAdapterFormats(packageDir) {
  const adapter = await import(pathToFileURL(join(packageDir, "dist", "index.js")).href)
  // PGlite is the package's own (dev) dependency: resolved from the package.
  const { PGlite } = await import(
    createRequire(join(packageDir, "package.json")).resolve("@electric-sql/pglite")
  )
  const db = new PGlite()
  try {
    await adapter.migrate(db)
    return [
      ...(await query(db, COLUMNS)).map(
        (row) =>
          `table.${row.table_name}.column.${row.column_name} = ${row.data_type}` +
          `${row.is_nullable === "NO" ? " not null" : ""}` +
          `${row.column_default === null ? "" : ` default ${row.column_default}`}`,
      ),
      ...(await query(db, CONSTRAINTS)).map(
        (row) => `table.${row.table_name}.constraint.${row.conname} = ${row.definition}`,
      ),
      ...(await query(db, INDEXES)).map(
        (row) => `table.${row.tablename}.index.${row.indexname} = ${row.indexdef}`,
      ),
      ...(await query(db, FUNCTIONS)).map((row) => `function.${row.proname} = ${row.args}`),
    ]
  } finally {
    await db.close()
  }
}

async function query(db, sql) {
  return (await db.query(sql)).rows
}

const COLUMNS = `
  select table_name, column_name, data_type, is_nullable, column_default
  from information_schema.columns where table_schema = 'public'`

const CONSTRAINTS = `
  select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as definition
  from pg_constraint c join pg_namespace n on n.oid = c.connamespace
  where n.nspname = 'public' and c.contype in ('p', 'u', 'f', 'c')`

const INDEXES = `
  select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'`

const FUNCTIONS = `
  select p.proname, pg_get_function_identity_arguments(p.oid) as args
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`
