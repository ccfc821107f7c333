/**
 * A software passkey authenticator on Web Crypto alone (the runtimes without `node:crypto` run it
 * too): a P-256 key, a "none" attestation object in CBOR, and ES256 assertion signatures, laid out
 * as WebAuthn Level 3 §6 describes them, in the JSON form a browser posts.
 */

const encoder = new TextEncoder()

function base64url(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

async function sha256(data: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource))
}

/** CBOR (RFC 8949) for what attestation objects hold: integers, text, bytes, maps. */
type CBOR = number | string | Uint8Array | Map<CBOR, CBOR>

function head(major: number, length: number): Uint8Array {
  if (length < 24) return Uint8Array.of((major << 5) | length)
  if (length < 0x100) return Uint8Array.of((major << 5) | 24, length)
  return Uint8Array.of((major << 5) | 25, length >> 8, length & 0xff)
}

function cbor(value: CBOR): Uint8Array {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") {
    const text = encoder.encode(value)
    return concat(head(3, text.length), text)
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value)
  const parts = [head(5, value.size)]
  for (const [key, entry] of value) parts.push(cbor(key), cbor(entry))
  return concat(...parts)
}

/** An ECDSA signature from Web Crypto's r‖s form to the DER form WebAuthn carries. */
function der(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    const trimmed = bytes.subarray(start)
    const padded = trimmed[0]! & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed
    return concat(Uint8Array.of(0x02, padded.length), padded)
  }
  const body = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32)))
  return concat(Uint8Array.of(0x30, body.length), body)
}

export interface Credential {
  id: string
  keys: CryptoKeyPair
  userHandle: string
  counter: number
}

/** What a ceremony answers: the options' challenge, and where the browser is. */
export interface Ceremony {
  challenge: string
  origin: string
  rpId: string
}

const clientData = (type: string, { challenge, origin }: Ceremony) =>
  encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

/** `navigator.credentials.create()`: a new credential, and the registration response. */
export async function createCredential(ceremony: Ceremony, userHandle: string) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair
  const jwk = await crypto.subtle.exportKey("jwk", keys.publicKey)
  const rawId = crypto.getRandomValues(new Uint8Array(32))
  const coseKey = cbor(
    new Map<CBOR, CBOR>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, fromBase64url(jwk.x!)],
      [-3, fromBase64url(jwk.y!)],
    ]),
  )
  const authData = concat(
    await sha256(ceremony.rpId),
    Uint8Array.of(0x01 | 0x04 | 0x40), // user present, user verified, attested credential data
    new Uint8Array(4), // counter 0
    new Uint8Array(16), // AAGUID: none
    Uint8Array.of(0, rawId.length),
    rawId,
    coseKey,
  )
  const attestationObject = cbor(
    new Map<CBOR, CBOR>([
      ["fmt", "none"],
      ["attStmt", new Map()],
      ["authData", authData],
    ]),
  )
  const credential: Credential = { id: base64url(rawId), keys, userHandle, counter: 0 }
  const response = {
    id: credential.id,
    rawId: credential.id,
    type: "public-key",
    response: {
      clientDataJSON: base64url(clientData("webauthn.create", ceremony)),
      attestationObject: base64url(attestationObject),
      transports: ["internal"],
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  }
  return { credential, response }
}

/** `navigator.credentials.get()`: an assertion signed with the credential's key. */
export async function assert(credential: Credential, ceremony: Ceremony) {
  credential.counter++
  const counter = new Uint8Array(4)
  new DataView(counter.buffer).setUint32(0, credential.counter)
  const authData = concat(await sha256(ceremony.rpId), Uint8Array.of(0x01 | 0x04), counter)
  const data = clientData("webauthn.get", ceremony)
  const signed = concat(authData, await sha256(data))
  const signature = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      credential.keys.privateKey,
      signed as BufferSource,
    ),
  )
  return {
    id: credential.id,
    rawId: credential.id,
    type: "public-key",
    response: {
      clientDataJSON: base64url(data),
      authenticatorData: base64url(authData),
      signature: base64url(der(signature)),
      userHandle: base64url(encoder.encode(credential.userHandle)),
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  }
}
