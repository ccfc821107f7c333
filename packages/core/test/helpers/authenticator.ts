/**
 * A software WebAuthn authenticator: real P-256 keys, real CBOR attestation objects ("none"
 * attestation, or the statement an `Attester` makes) and real ES256 assertion signatures, built byte by byte as WebAuthn Level 3 §6
 * lays them out. What it returns is what a browser posts after `navigator.credentials.create()`
 * or `.get()`, in the JSON form `@simplewebauthn/browser` makes.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

/** CBOR (RFC 8949) for what attestation objects hold: integers, text, bytes, maps. */
export type CBORValue = number | string | Uint8Array | CBORValue[] | Map<CBORValue, CBORValue>

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  if (length < 0x10000) {
    const head = Buffer.alloc(3)
    head[0] = (major << 5) | 25
    head.writeUInt16BE(length, 1)
    return head
  }
  const head = Buffer.alloc(5)
  head[0] = (major << 5) | 26
  head.writeUInt32BE(length, 1)
  return head
}

export function cbor(value: CBORValue): Buffer {
  if (typeof value === "number") {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value)
  }
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8")
    return Buffer.concat([cborHead(3, text.length), text])
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value])
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)])
  const parts = [cborHead(5, value.size)]
  for (const [key, entry] of value) parts.push(cbor(key), cbor(entry))
  return Buffer.concat(parts)
}

/** Authenticator data flags (§6.1). */
export interface Flags {
  userPresent?: boolean
  userVerified?: boolean
  backupEligible?: boolean
  backedUp?: boolean
}

function flagsByte(flags: Flags, attested: boolean): number {
  return (
    (flags.userPresent === false ? 0 : 0x01) |
    (flags.userVerified === false ? 0 : 0x04) |
    (flags.backupEligible ? 0x08 : 0) |
    (flags.backedUp ? 0x10 : 0) |
    (attested ? 0x40 : 0)
  )
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(counter, 0)
  return bytes
}

/** The COSE_Key (RFC 9053) of an EC2 P-256 public key for ES256. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" })
  return cbor(
    new Map<CBORValue, CBORValue>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  )
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
}

/** A credential the authenticator holds. */
export interface SoftCredential {
  id: string
  rawId: Buffer
  privateKey: KeyObject
  publicKey: KeyObject
  userHandle: string
  /** The signature counter; `undefined` for an authenticator without one (always 0). */
  counter: number | undefined
}

/** What a ceremony is answered for: the options' challenge, and where the browser was. */
export interface CeremonyInput {
  challenge: string
  origin: string
  rpId: string
  flags?: Flags
  /** Lies about the ceremony type (for tests of a mismatched response). */
  type?: string
}

/** The options of `generateRegistrationOptions`, in their JSON form. */
export interface CreationOptionsJSON {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string; displayName: string }
  [option: string]: unknown
}

/**
 * How an authenticator attests a new credential: its model (AAGUID) and the statement it signs
 * over `authData ‖ SHA-256(clientDataJSON)` (WebAuthn §6.5). Without one: "none", no model.
 */
export interface Attester {
  aaguid: Uint8Array
  statement(
    signed: Buffer,
    credentialKey: KeyObject,
  ): { fmt: string; attStmt: Map<CBORValue, CBORValue> }
}

/** An authenticator: makes credentials and signs assertions with them. */
export class SoftAuthenticator {
  credentials = new Map<string, SoftCredential>()

  /**
   * `signatures`: `"full-length"` signs again until both ECDSA integers have 32 significant bytes
   * (about 1 signature in 128 has a shorter one, which @simplewebauthn/server 9, Auth.js's,
   * refuses); `"short"` signs until one of them is shorter. @default any
   */
  constructor(
    private readonly options: {
      counter?: boolean
      signatures?: "full-length" | "short"
      attester?: Attester
      /** The model's AAGUID it puts in registrations (with dashes); all zeros by default. */
      aaguid?: string
    } = {},
  ) {}

  /**
   * `navigator.credentials.create()`: a new credential (or `reuse`'s key and id again), as a
   * registration response JSON.
   */
  create(input: CeremonyInput, userHandle = "", reuse?: SoftCredential) {
    const { privateKey, publicKey } = reuse ?? generateKeyPairSync("ec", { namedCurve: "P-256" })
    const rawId = reuse?.rawId ?? randomBytes(32)
    const credential: SoftCredential = {
      id: b64url(rawId),
      rawId,
      privateKey,
      publicKey,
      userHandle,
      counter: this.options.counter === false ? undefined : 0,
    }
    this.credentials.set(credential.id, credential)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(rawId.length, 0)
    const authData = Buffer.concat([
      sha256(input.rpId),
      Buffer.from([flagsByte(input.flags ?? {}, true)]),
      counterBytes(0),
      this.options.attester?.aaguid ??
        (this.options.aaguid
          ? Buffer.from(this.options.aaguid.replace(/-/g, ""), "hex")
          : Buffer.alloc(16)), // AAGUID: all zero, no model
      idLength,
      rawId,
      coseKey(publicKey),
    ])
    const clientDataJSON = clientData(
      input.type ?? "webauthn.create",
      input.challenge,
      input.origin,
    )
    const signed = Buffer.concat([authData, sha256(clientDataJSON)])
    const { fmt, attStmt } = this.options.attester?.statement(signed, privateKey) ?? {
      fmt: "none",
      attStmt: new Map(),
    }
    const attestationObject = cbor(
      new Map<CBORValue, CBORValue>([
        ["fmt", fmt],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    )
    return {
      credential,
      response: {
        id: credential.id,
        rawId: credential.id,
        type: "public-key" as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      },
    }
  }

  /** `navigator.credentials.get()`: an assertion signed with `credential`. */
  get(credential: SoftCredential, input: CeremonyInput, options: { counter?: number } = {}) {
    let counter = 0
    if (options.counter !== undefined) counter = options.counter
    else if (credential.counter !== undefined) counter = ++credential.counter
    const authData = Buffer.concat([
      sha256(input.rpId),
      Buffer.from([flagsByte(input.flags ?? {}, false)]),
      counterBytes(counter),
    ])
    const clientDataJSON = clientData(input.type ?? "webauthn.get", input.challenge, input.origin)
    const signed = Buffer.concat([authData, sha256(clientDataJSON)])
    let signature = sign("sha256", signed, { key: credential.privateKey, dsaEncoding: "der" })
    for (let tries = 0; this.options.signatures && tries < 100_000; tries++) {
      if (hasShortInteger(signature) === (this.options.signatures === "short")) break
      signature = sign("sha256", signed, { key: credential.privateKey, dsaEncoding: "der" })
    }
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(Buffer.from(credential.userHandle)),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}

/** Whether a DER ECDSA signature's r or s has fewer than 32 significant bytes. */
export function hasShortInteger(der: Buffer): boolean {
  const rLength = der[3]!
  const r = der.subarray(4, 4 + rLength)
  const s = der.subarray(4 + rLength + 2, 4 + rLength + 2 + der[5 + rLength]!)
  const significant = (n: Buffer) => n.length - (n[0] === 0 ? 1 : 0)
  return significant(r) < 32 || significant(s) < 32
}
