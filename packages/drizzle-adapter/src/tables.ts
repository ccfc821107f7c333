/**
 * The tables the adapter works on: the dialect's defaults (`./pg/schema.ts`,
 * `./sqlite/schema.ts`), any of which the app may replace by its own table object, as
 * `@auth/drizzle-adapter` accepts them (`usersTable`, `accountsTable`, …). A table of one's own
 * must have the default's columns under the same property names; it may name them differently in
 * the database and have more columns (a user's `role`), which the adapter passes through.
 */
export interface DrizzleAdapterTables<Table = unknown> {
  usersTable?: Table
  accountsTable?: Table
  sessionsTable?: Table
  verificationTokensTable?: Table
  authenticatorsTable?: Table
  /** Latch's own: password hashes. */
  passwordsTable?: Table
  /** Latch's own: second factors. */
  twoFactorsTable?: Table
  /** Latch's own: recovery codes. */
  recoveryCodesTable?: Table
  /** Latch's own: the counters of rate limits and single-use steps. */
  countersTable?: Table
}

/** Every table, resolved; typed loosely, as the shared code runs the same on every dialect. */
export interface Tables {
  users: any
  accounts: any
  sessions: any
  verificationTokens: any
  authenticators: any
  passwords: any
  twoFactors: any
  recoveryCodes: any
  counters: any
}

/** The dialect's default tables, as its schema module exports them. */
export interface DefaultSchema {
  users: unknown
  accounts: unknown
  sessions: unknown
  verificationTokens: unknown
  authenticators: unknown
  passwords: unknown
  twoFactors: unknown
  recoveryCodes: unknown
  counters: unknown
}

export function resolveTables(defaults: DefaultSchema, given: DrizzleAdapterTables = {}): Tables {
  return {
    users: given.usersTable ?? defaults.users,
    accounts: given.accountsTable ?? defaults.accounts,
    sessions: given.sessionsTable ?? defaults.sessions,
    verificationTokens: given.verificationTokensTable ?? defaults.verificationTokens,
    authenticators: given.authenticatorsTable ?? defaults.authenticators,
    passwords: given.passwordsTable ?? defaults.passwords,
    twoFactors: given.twoFactorsTable ?? defaults.twoFactors,
    recoveryCodes: given.recoveryCodesTable ?? defaults.recoveryCodes,
    counters: given.countersTable ?? defaults.counters,
  }
}
