/**
 * A dump of a database as sorted lines of text, one fact a line, read from PostgreSQL's catalogs
 * (so it reads the same on PGlite and on a server, with no `pg_dump` of a matching version):
 *
 * - `schemaDump`: tables, each column's type and nullability, each column's default on a line of
 *   its own (a default added to an existing column is an addition, not a change), constraints,
 *   indexes, functions with their bodies, and triggers.
 * - `dataDump`: every row of every table, ordered, as JSON.
 */
interface Client {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>
}

const SCHEMA = "current_schema()"
const NAMESPACE = "(select oid from pg_namespace where nspname = current_schema())"

const QUERIES: [string, (row: any) => string][] = [
  [
    `select table_name from information_schema.tables
     where table_schema = ${SCHEMA} and table_type = 'BASE TABLE'`,
    (row) => `table ${row.table_name}`,
  ],
  [
    `select table_name, column_name, data_type, is_nullable from information_schema.columns
     where table_schema = ${SCHEMA}`,
    (row) =>
      `column ${row.table_name}.${row.column_name} ${row.data_type}` +
      (row.is_nullable === "NO" ? " not null" : ""),
  ],
  [
    `select table_name, column_name, column_default from information_schema.columns
     where table_schema = ${SCHEMA} and column_default is not null`,
    (row) => `default ${row.table_name}.${row.column_name} ${row.column_default}`,
  ],
  [
    `select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as def
     from pg_constraint c where c.connamespace = ${NAMESPACE}`,
    (row) => `constraint ${row.table_name}.${row.conname} ${row.def}`,
  ],
  [
    `select indexname, indexdef from pg_indexes where schemaname = ${SCHEMA}`,
    (row) => `index ${row.indexname} ${row.indexdef}`,
  ],
  [
    `select p.proname, pg_get_function_identity_arguments(p.oid) as args, p.prosrc as body
     from pg_proc p where p.pronamespace = ${NAMESPACE}`,
    (row) => `function ${row.proname}(${row.args}) ${JSON.stringify(row.body)}`,
  ],
  [
    `select t.tgname, pg_get_triggerdef(t.oid) as def from pg_trigger t
     join pg_class c on c.oid = t.tgrelid
     where c.relnamespace = ${NAMESPACE} and not t.tgisinternal`,
    (row) => `trigger ${row.tgname} ${row.def}`,
  ],
]

export async function schemaDump(client: Client): Promise<string[]> {
  const lines: string[] = []
  for (const [sql, line] of QUERIES) {
    for (const row of (await client.query(sql)).rows) lines.push(line(row))
  }
  return lines.sort()
}

/** Every row of every table of the schema, each table's rows in a fixed order. */
export async function dataDump(client: Client): Promise<string[]> {
  const { rows: tables } = await client.query(
    `select table_name from information_schema.tables
     where table_schema = ${SCHEMA} and table_type = 'BASE TABLE' order by table_name`,
  )
  const lines: string[] = []
  for (const { table_name: table } of tables) {
    const { rows } = await client.query(`select row_to_json(t)::text as row from "${table}" t`)
    for (const { row } of rows) lines.push(`${table} ${row}`)
  }
  return lines.sort()
}

/** Row counts by table. */
export async function counts(client: Client, tables: string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = {}
  for (const table of tables) {
    const { rows } = await client.query(`select count(*)::integer as n from "${table}"`)
    result[table] = Number(rows[0].n)
  }
  return result
}
