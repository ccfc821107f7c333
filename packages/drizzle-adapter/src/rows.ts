/**
 * Rows as Drizzle returns them (keyed by the tables' property names, values already mapped to
 * `Date`, `number`, `boolean`) → Latch's records.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterAuthenticatorUpdate,
  AdapterSession,
  AdapterUser,
} from "@latch/core/adapters"

type Row = Record<string, any>

/** The token fields of an account, which keep OAuth's names. */
export const tokenFields = [
  "access_token",
  "refresh_token",
  "id_token",
  "token_type",
  "scope",
  "session_state",
  "expires_at",
  "authorization_details",
] as const

/** The fields of `values` that are columns of `table` (Drizzle ignores others, but a custom
 * table may lack an optional one, and a user may carry fields the table does not store). */
export function onlyColumns(table: Row, values: Row): Row {
  const picked: Row = {}
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && key in table && table[key]?.name) picked[key] = value
  }
  return picked
}

/**
 * No address (`null`, `undefined` or `""`) is stored as `null`, so that the unique `email`
 * column takes any number of users without one (OAuth users of X, some GitHub users).
 */
export function emailValue(email: string | null | undefined): string | null {
  return email === undefined || email === null || email.trim() === "" ? null : email
}

export function toUser(row: Row): AdapterUser {
  return { ...row, emailVerified: row.emailVerified ?? null } as AdapterUser
}

export function toAccount(row: Row): AdapterAccount {
  const account: Row = {}
  // Fields the provider did not send stay absent rather than null, as in the token response.
  for (const [key, value] of Object.entries(row)) if (value !== null) account[key] = value
  if (typeof account.expires_at === "string") account.expires_at = Number(account.expires_at)
  return account as AdapterAccount
}

export function toSession(row: Row): AdapterSession {
  const session: Row = { ...row }
  // A row made before Latch's session fields has no id yet (the adapter gives it one on read).
  if (session.id === null) delete session.id
  return session as AdapterSession
}

/** Latch's passkey fields: a table has them all (its adapter has `updateAuthenticator`) or none. */
export const passkeyFields = [
  "name",
  "createdAt",
  "lastUsedAt",
  "aaguid",
  "createdBy",
  "secondFactor",
] as const

/** Whether an authenticators table has Latch's passkey fields (a table made for Auth.js has not). */
export function hasPasskeyFields(table: Row): boolean {
  return passkeyFields.every((field) => field in table && table[field]?.name)
}

/** The fields updateAuthenticator may change. */
export function authenticatorChanges(fields: AdapterAuthenticatorUpdate): Row {
  const changes: Row = {}
  for (const field of ["counter", "name", "lastUsedAt", "secondFactor"] as const)
    if (fields[field] !== undefined) changes[field] = fields[field]
  return changes
}

export function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    ...row,
    counter: Number(row.counter),
    transports: row.transports ?? null,
  } as AdapterAuthenticator
}
