/**
 * What differs between databases, behind one interface: the shared code of adapter.ts builds its
 * queries with Drizzle's builders, which read the same on every dialect, and asks the dialect only
 * for what does not.
 */
import type { Adapter, SessionChangeListener, SessionWatch } from "@latch/core/adapters"
import type { SQL } from "drizzle-orm"
import type { Tables } from "./tables.js"

/** Builds the queries of one atomic group on the connection (or transaction) given. */
export type Group = (db: any) => any[]

export interface Dialect {
  /** `"postgresql"`, `"sqlite"` or `"mysql"`, as in messages. */
  name: string
  tables: Tables
  /** The database's clock, in the counters' `expires` column's type: every instance of the app
   * then agrees on when a window ends. */
  now: SQL
  /** Runs the group's queries in one transaction (all or nothing); resolves to each one's rows
   * (every query of a group has `returning`). */
  atomic(group: Group): Promise<unknown[][]>
  /** Extra queries at the head of `setRecoveryCodes`' group, so that of two replacements at once
   * the second waits for the first and deletes what it inserted (PostgreSQL locks the user row;
   * SQLite's transactions are serial already). */
  lockUser(db: any, userId: string): any[]
  /** Where `report` (changes.ts) files the adapter's writes; undefined when the database reports
   * changes itself (PostgreSQL's triggers). */
  inProcessChanges: object | undefined
  /** Methods that replace the shared ones, for a database whose SQL differs (MySQL has no
   * `returning`). */
  methods?: () => Partial<Adapter>
  /** The session watch, when the dialect and its driver can give a correct one. */
  watchSessions?: (listener: SessionChangeListener) => Promise<SessionWatch>
}
