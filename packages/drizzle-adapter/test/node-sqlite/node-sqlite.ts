/**
 * node:sqlite (Node.js 22.16 and later, for `setReturnArrays`), typed by the little the tests
 * use: the package is typed against Node 20, which has no such module.
 */
export interface SyncStatement {
  run(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
  get(...params: unknown[]): unknown
  setReturnArrays(enabled: boolean): void
}

export interface SyncDatabase {
  prepare(sql: string): SyncStatement
  exec(sql: string): void
  close(): void
}

export async function openSync(path: string): Promise<SyncDatabase> {
  const specifier = "node:sqlite"
  const { DatabaseSync } = (await import(specifier)) as {
    DatabaseSync: new (path: string) => SyncDatabase
  }
  return new DatabaseSync(path)
}
