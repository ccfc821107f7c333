/**
 * Column ↔ field mapping: the database speaks snake_case, Latch camelCase (and OAuth's own
 * snake_case for token fields, which keep their names).
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterAuthenticatorUpdate,
  AdapterSession,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "@latch/core/adapters"
import type { Row } from "./client.js"

/** `timestamptz` arrives as a `Date` from both pg and PGlite; anything else is converted. */
function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string | number)
}

/** `bigint` arrives as a string from pg and as a number from PGlite. */
function toNumber(value: unknown): number {
  return typeof value === "number" ? value : Number(value)
}

function toNullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value)
}

export function toUser(row: Row): AdapterUser {
  return {
    id: row.id as string,
    name: toNullableString(row.name),
    email: row.email as string,
    emailVerified: row.email_verified === null ? null : toDate(row.email_verified),
    image: toNullableString(row.image),
  }
}

/**
 * An email to store: no address (`null`, `undefined` or `""`) is `null`, so that the unique
 * `email` column takes any number of users without one (OAuth users of X, some GitHub users).
 */
export function emailValue(email: string | null | undefined): string | null {
  return email === undefined || email === null || email.trim() === "" ? null : email
}

/** The user's columns, given as values in this order by createUser. */
/** A user to create: an `AdapterUser` whose `id` and `emailVerified` may be left out. */
export type NewUser = Omit<AdapterUser, "id" | "emailVerified"> & {
  id?: string | null
  emailVerified?: Date | null
}

export function userValues(user: NewUser): unknown[] {
  return [
    user.id ?? null,
    user.name ?? null,
    emailValue(user.email),
    user.emailVerified ?? null,
    user.image ?? null,
  ]
}

/** The fields updateUser may change, with their columns. */
export const userColumns = {
  name: "name",
  email: "email",
  emailVerified: "email_verified",
  image: "image",
} as const satisfies Partial<Record<keyof AdapterUser, string>>

/** The token fields stored with an account: same name as field and as column. */
const tokenFields = [
  "access_token",
  "refresh_token",
  "id_token",
  "token_type",
  "scope",
  "session_state",
] as const

/** The account's columns, in the order of `accountValues`. */
export const accountColumns = [
  "user_id",
  "type",
  "provider",
  "provider_account_id",
  ...tokenFields,
  "expires_at",
  "authorization_details",
] as const

export function accountValues(account: AdapterAccount): unknown[] {
  const details = account.authorization_details
  return [
    account.userId,
    account.type,
    account.provider,
    account.providerAccountId,
    ...tokenFields.map((field) => {
      const value = account[field]
      return value === undefined || value === null ? null : String(value)
    }),
    account.expires_at ?? null,
    // pg would send a JS array as a PostgreSQL array: send JSON text and cast it to jsonb.
    details === undefined || details === null ? null : JSON.stringify(details),
  ]
}

export function toAccount(row: Row): AdapterAccount {
  const account: Record<string, unknown> = {
    userId: row.user_id,
    type: row.type,
    provider: row.provider,
    providerAccountId: row.provider_account_id,
  }
  // Fields the provider did not send stay absent rather than null, as in the token response.
  for (const field of tokenFields) if (row[field] !== null) account[field] = row[field]
  if (row.expires_at !== null) account.expires_at = toNumber(row.expires_at)
  if (row.authorization_details !== null) {
    const details = row.authorization_details
    account.authorization_details = typeof details === "string" ? JSON.parse(details) : details
  }
  return account as unknown as AdapterAccount
}

function toNullableDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value)
}

/**
 * A session row, with Latch's session fields. In the join of `getSessionAndUser` the users'
 * `id` takes the name, so the session's comes as `session_id`.
 */
export function toSession(row: Row): AdapterSession {
  return {
    sessionToken: row.session_token as string,
    userId: row.user_id as string,
    expires: toDate(row.expires),
    id: ("session_id" in row ? row.session_id : row.id) as string,
    userAgent: toNullableString(row.user_agent),
    clientAddress: toNullableString(row.client_address),
    createdAt: toNullableDate(row.created_at),
    lastSeenAt: toNullableDate(row.last_seen_at),
  }
}

/** The session's columns as `createSession` inserts them, in this order; an id or creation
 * time not given is left to the column's default (a random UUID, now). */
export function sessionValues(session: AdapterSession): unknown[] {
  return [
    session.sessionToken,
    session.userId,
    session.expires,
    session.id ?? null,
    session.userAgent ?? null,
    session.clientAddress ?? null,
    session.createdAt ?? null,
    session.lastSeenAt ?? null,
  ]
}

export function toVerificationToken(row: Row): VerificationToken {
  return {
    identifier: row.identifier as string,
    token: row.token as string,
    expires: toDate(row.expires),
  }
}

export function toAuthenticator(row: Row): AdapterAuthenticator {
  return {
    credentialID: row.credential_id as string,
    userId: row.user_id as string,
    providerAccountId: row.provider_account_id as string,
    credentialPublicKey: row.credential_public_key as string,
    counter: toNumber(row.counter),
    credentialDeviceType: row.credential_device_type as string,
    credentialBackedUp: row.credential_backed_up as boolean,
    transports: toNullableString(row.transports),
    name: toNullableString(row.name),
    createdAt: toNullableDate(row.created_at),
    lastUsedAt: toNullableDate(row.last_used_at),
    aaguid: toNullableString(row.aaguid),
    createdBy: toNullableString(row.created_by),
    secondFactor: row.second_factor === true,
  }
}

/** The passkey's columns as `createAuthenticator` inserts them, in this order. */
export const authenticatorColumns = [
  "credential_id",
  "user_id",
  "provider_account_id",
  "credential_public_key",
  "counter",
  "credential_device_type",
  "credential_backed_up",
  "transports",
  "name",
  "created_at",
  "last_used_at",
  "aaguid",
  "created_by",
  "second_factor",
] as const

export function authenticatorValues(authenticator: AdapterAuthenticator): unknown[] {
  return [
    authenticator.credentialID,
    authenticator.userId,
    authenticator.providerAccountId,
    authenticator.credentialPublicKey,
    authenticator.counter,
    authenticator.credentialDeviceType,
    authenticator.credentialBackedUp,
    authenticator.transports ?? null,
    authenticator.name ?? null,
    authenticator.createdAt ?? null,
    authenticator.lastUsedAt ?? null,
    authenticator.aaguid ?? null,
    authenticator.createdBy ?? null,
    authenticator.secondFactor === true,
  ]
}

/** The fields updateAuthenticator may change, with their columns. */
export const authenticatorUpdateColumns = {
  counter: "counter",
  name: "name",
  lastUsedAt: "last_used_at",
  secondFactor: "second_factor",
} as const satisfies Record<keyof AdapterAuthenticatorUpdate, string>

/** The hash comes back exactly as stored: it names its own algorithm and parameters, and core
 * parses it, so the adapter neither trims nor checks it. */
export function toPasswordHash(row: Row): string {
  return row.hash as string
}

/** The secret comes back exactly as stored: core sealed it, and only core opens it. */
export function toTwoFactor(row: Row): AdapterTwoFactor {
  return {
    userId: row.user_id as string,
    secret: row.secret as string,
    enabledAt: toDate(row.enabled_at),
  }
}
