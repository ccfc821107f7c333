/**
 * Random records for the tests: every call gives new ids and emails, so tests sharing one
 * database never see each other's rows.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "@latch/core/adapters"

export const randomId = (prefix: string) => `${prefix}-${randomUUID()}`

/** A date `ms` from now, to the millisecond (what every database keeps exactly). */
export const fromNow = (ms: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + ms)

const HOUR = 3_600_000

export function newUser(fields: Partial<AdapterUser> = {}): AdapterUser {
  const id = randomId("user")
  return {
    id,
    name: "Ada Lovelace",
    email: `${id}@example.com`,
    emailVerified: fromNow(-HOUR),
    image: `https://example.com/avatars/${id}.png`,
    ...fields,
  }
}

/** An OpenID Connect account carrying every token field the adapter stores. */
export function newAccount(userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oidc",
    provider: "example-oidc",
    providerAccountId: randomId("sub"),
    access_token: randomId("at"),
    refresh_token: randomId("rt"),
    id_token: `eyJhbGciOiJSUzI1NiJ9.${randomId("payload")}.signature`,
    token_type: "bearer",
    scope: "openid email profile",
    session_state: randomId("state"),
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    authorization_details: [
      {
        type: "payment_initiation",
        actions: ["initiate", "status"],
        locations: ["https://example.com/payments"],
      },
    ],
    ...fields,
  }
}

export function newSession(userId: string, fields: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: randomId("session"), userId, expires: fromNow(30 * 24 * HOUR), ...fields }
}

/**
 * A session with Latch's session fields too (`id`, device, times), as core creates it for an
 * adapter that implements `deleteSessionById`.
 */
export function newLatchSession(
  userId: string,
  fields: Partial<AdapterSession> = {},
): AdapterSession {
  return newSession(userId, {
    id: randomUUID(),
    userAgent: "Firefox on Linux",
    clientAddress: "203.0.113.7",
    createdAt: fromNow(-60_000),
    lastSeenAt: null,
    ...fields,
  })
}

export function newVerificationToken(fields: Partial<VerificationToken> = {}): VerificationToken {
  return {
    identifier: `${randomId("email")}@example.com`,
    // Core hands adapters the token's hash: a hex SHA-256 here.
    token: randomUUID().replaceAll("-", "").repeat(2),
    expires: fromNow(HOUR),
    ...fields,
  }
}

export function newAuthenticator(
  userId: string,
  fields: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return {
    credentialID: Buffer.from(randomId("credential")).toString("base64url"),
    userId,
    providerAccountId: randomId("passkey-account"),
    credentialPublicKey: Buffer.from(randomId("public-key")).toString("base64"),
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
    ...fields,
  }
}

/**
 * A passkey with Latch's passkey fields too (name, dates, model, browser), as core creates it for
 * an adapter that implements `updateAuthenticator`.
 */
export function newLatchAuthenticator(
  userId: string,
  fields: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return newAuthenticator(userId, {
    name: "Work laptop",
    createdAt: fromNow(-60_000),
    lastUsedAt: null,
    aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
    createdBy: "Safari on macOS",
    secondFactor: false,
    ...fields,
  })
}

/**
 * A new passkey of `userId`, with Latch's passkey fields when the adapter stores them (it
 * implements `updateAuthenticator`), as core creates passkeys: so that every passkey case checks
 * those fields too.
 */
export function newAuthenticatorFor(
  adapter: Pick<Adapter, "updateAuthenticator">,
  userId: string,
  fields: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return typeof adapter.updateAuthenticator === "function"
    ? newLatchAuthenticator(userId, fields)
    : newAuthenticator(userId, fields)
}

/**
 * A password hash shaped like core's (`$scrypt$<parameters>$<salt>$<key>`), with a random salt
 * and key in base64 (`+`, `/` and `=` included), for checking that it is kept character for
 * character.
 */
export function newPasswordHash(): string {
  const salt = randomBytes(16).toString("base64")
  const key = randomBytes(64).toString("base64")
  return `$scrypt$ln=17,r=8,p=1$${salt}$${key}`
}

/**
 * A second factor shaped like core's: the TOTP secret sealed in a compact JWE (base64url parts
 * joined by dots, the key part empty), which the adapter stores as it is.
 */
export function newTwoFactor(
  userId: string,
  fields: Partial<AdapterTwoFactor> = {},
): AdapterTwoFactor {
  const part = (bytes: number) => randomBytes(bytes).toString("base64url")
  return {
    userId,
    secret: `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${part(12)}.${part(80)}.${part(16)}`,
    enabledAt: fromNow(-60_000),
    ...fields,
  }
}

/** Recovery code hashes shaped like core's: HMAC-SHA256 in lowercase hex. */
export function newRecoveryCodeHashes(count = 10): string[] {
  return Array.from({ length: count }, () => randomBytes(32).toString("hex"))
}
