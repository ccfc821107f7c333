/**
 * The byte-level pieces of WebAuthn that Latch reads itself, before the library verifies the
 * signature, so that each failure gets its own code: the client data (type, challenge, origin;
 * WebAuthn Level 3 §5.8.1) and the authenticator data (RP id hash, flags, signature counter;
 * §6.1). Also the storage forms: credential ids and public keys in padded standard base64, the
 * form Auth.js stores, so that passkeys move between the two in either direction.
 */
import type { AdapterAuthenticator } from "../../adapters.js"
import { decodeBase64url, encodeBase64url } from "../../lib/base64url.js"

const encoder = new TextEncoder()

/** The client data the browser signed over. */
export interface ClientData {
  type: string
  challenge: string
  origin: string
  crossOrigin?: boolean
}

/** Decodes `clientDataJSON` (base64url); `null` when it is not client data. */
export function parseClientData(encoded: unknown): ClientData | null {
  if (typeof encoded !== "string") return null
  const bytes = decodeBase64url(encoded)
  if (!bytes) return null
  try {
    const data = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ClientData>
    if (
      typeof data.type !== "string" ||
      typeof data.challenge !== "string" ||
      typeof data.origin !== "string"
    ) {
      return null
    }
    return data as ClientData
  } catch {
    return null
  }
}

/** The fixed-size head of authenticator data: RP id hash, flags, signature counter. */
export interface AuthenticatorDataHead {
  rpIdHash: Uint8Array
  userPresent: boolean
  userVerified: boolean
  counter: number
}

/** Reads the first 37 bytes of authenticator data; `null` when there are fewer. */
export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorDataHead | null {
  if (bytes.length < 37) return null
  const flags = bytes[32]!
  const counter = new DataView(bytes.buffer, bytes.byteOffset + 33, 4).getUint32(0, false)
  return {
    rpIdHash: bytes.subarray(0, 32),
    userPresent: (flags & 0x01) !== 0,
    userVerified: (flags & 0x04) !== 0,
    counter,
  }
}

/** Whether the authenticator data was made for this RP id (SHA-256 of the id). */
export async function isForRelyingParty(rpIdHash: Uint8Array, rpId: string): Promise<boolean> {
  const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(rpId)))
  if (expected.length !== rpIdHash.length) return false
  let difference = 0
  for (let i = 0; i < expected.length; i++) difference |= expected[i]! ^ rpIdHash[i]!
  return difference === 0
}

/**
 * The WebAuthn user handle of a user: its id's UTF-8 bytes, or their SHA-256 when the id is
 * longer than the 64 bytes a handle may have (§5.4.3).
 */
export async function userHandle(userId: string): Promise<Uint8Array> {
  const bytes = encoder.encode(userId)
  if (bytes.length <= 64) return bytes
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))
}

/**
 * A credential id as the browser and `@simplewebauthn/server` speak it (base64url), from its
 * stored form: padded standard base64 (what Auth.js and Latch write) or base64url (what Latch
 * wrote before). Unchanged when it is neither.
 */
export function credentialIdOf(stored: string): string {
  const bytes = fromBase64(stored)
  return bytes ? encodeBase64url(bytes) : stored
}

/**
 * The forms a credential id may be stored in, the one Latch writes first: padded standard
 * base64, then base64url. Empty when `id` (base64url, from the browser) is not an id at all.
 */
export function storedCredentialIds(id: string): string[] {
  const bytes = decodeBase64url(id)
  if (!bytes || bytes.length === 0) return []
  const standard = toBase64(bytes)
  const url = encodeBase64url(bytes)
  return standard === url ? [standard] : [standard, url]
}

/** A stored credential as an entry of `allowCredentials` or `excludeCredentials`. */
export function credentialDescriptor(authenticator: AdapterAuthenticator): {
  id: string
  transports?: string[]
} {
  const id = credentialIdOf(authenticator.credentialID)
  const transports = authenticator.transports?.split(",").filter(Boolean)
  return transports?.length ? { id, transports } : { id }
}

/** Bytes → standard base64, the storage form of public keys. */
export function toBase64(bytes: Uint8Array): string {
  return encodeBase64url(bytes)
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(bytes.length / 3) * 4, "=")
}

/** Standard base64 (or base64url) → bytes; `null` when it is neither. */
export function fromBase64(text: string): Uint8Array | null {
  return decodeBase64url(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"))
}
