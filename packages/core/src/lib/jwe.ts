/**
 * Compact JWE with `alg: "dir"` and `enc: "A256CBC-HS512"` (RFC 7516, RFC 7518 §5.2.5) — the
 * one format of Latch's session cookies. Tokens are standard: `jose.jwtDecrypt` reads ours and
 * we read jose's.
 *
 * Why not call jose on every request: its A256CBC-HS512 path imports the AES and HMAC keys into
 * Web Crypto on each call. Here keys are imported once per derived key and, on Node, the work
 * runs synchronously on `node:crypto` (loaded through `process.getBuiltinModule`, so bundlers
 * for other runtimes never see it); elsewhere Web Crypto with the cached keys is used.
 */
import type * as NodeCrypto from "node:crypto"
import {
  decodeBase64url,
  decodeBase64urlText,
  encodeBase64url,
  encodeBase64urlText,
} from "./base64url.js"
import type { DerivedKey } from "../security/keys.js"
import { nodeCrypto } from "./node-crypto.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The 64-bit big-endian bit length of the additional authenticated data (RFC 7518 §5.2.2.1). */
function aadBitLength(aad: Uint8Array): Uint8Array {
  const al = new Uint8Array(8)
  new DataView(al.buffer).setBigUint64(0, BigInt(aad.length) * 8n)
  return al
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

interface Backend {
  encrypt(
    key: DerivedKey,
    iv: Uint8Array,
    plaintext: Uint8Array,
    aad: Uint8Array,
  ):
    | Promise<{ ciphertext: Uint8Array; tag: Uint8Array }>
    | { ciphertext: Uint8Array; tag: Uint8Array }
  /** The plaintext, or `null` when the tag does not verify or the padding is wrong. */
  decrypt(
    key: DerivedKey,
    iv: Uint8Array,
    ciphertext: Uint8Array,
    tag: Uint8Array,
    aad: Uint8Array,
  ): Promise<Uint8Array | null> | Uint8Array | null
}

function createNodeBackend(node: typeof NodeCrypto): Backend {
  const keys = new WeakMap<DerivedKey, { mac: NodeCrypto.KeyObject; enc: NodeCrypto.KeyObject }>()
  const keyObjects = (key: DerivedKey) => {
    let pair = keys.get(key)
    if (!pair) {
      pair = {
        mac: node.createSecretKey(key.bytes.subarray(0, 32)),
        enc: node.createSecretKey(key.bytes.subarray(32, 64)),
      }
      keys.set(key, pair)
    }
    return pair
  }
  const tagOf = (
    mac: NodeCrypto.KeyObject,
    aad: Uint8Array,
    iv: Uint8Array,
    ciphertext: Uint8Array,
  ) =>
    new Uint8Array(
      node
        .createHmac("sha512", mac)
        .update(aad)
        .update(iv)
        .update(ciphertext)
        .update(aadBitLength(aad))
        .digest()
        .subarray(0, 32),
    )
  return {
    encrypt(key, iv, plaintext, aad) {
      const { mac, enc } = keyObjects(key)
      const cipher = node.createCipheriv("aes-256-cbc", enc, iv)
      const ciphertext = concat(cipher.update(plaintext), cipher.final())
      return { ciphertext, tag: tagOf(mac, aad, iv, ciphertext) }
    },
    decrypt(key, iv, ciphertext, tag, aad) {
      const { mac, enc } = keyObjects(key)
      // Authenticate before decrypting: no padding oracle (RFC 7518 §5.2.2.2).
      if (!node.timingSafeEqual(tagOf(mac, aad, iv, ciphertext), tag)) return null
      try {
        const decipher = node.createDecipheriv("aes-256-cbc", enc, iv)
        return concat(decipher.update(ciphertext), decipher.final())
      } catch {
        return null
      }
    },
  }
}

function createWebBackend(): Backend {
  const keys = new WeakMap<DerivedKey, Promise<{ mac: CryptoKey; enc: CryptoKey }>>()
  const cryptoKeys = (key: DerivedKey) => {
    let pair = keys.get(key)
    if (!pair) {
      pair = Promise.all([
        crypto.subtle.importKey(
          "raw",
          key.bytes.slice(0, 32),
          { name: "HMAC", hash: "SHA-512" },
          false,
          ["sign"],
        ),
        crypto.subtle.importKey("raw", key.bytes.slice(32, 64), "AES-CBC", false, [
          "encrypt",
          "decrypt",
        ]),
      ]).then(([mac, enc]) => ({ mac, enc }))
      keys.set(key, pair)
    }
    return pair
  }
  const tagOf = async (mac: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array) =>
    new Uint8Array(
      await crypto.subtle.sign(
        "HMAC",
        mac,
        concat(aad, iv, ciphertext, aadBitLength(aad)) as BufferSource,
      ),
    ).slice(0, 32)
  return {
    async encrypt(key, iv, plaintext, aad) {
      const { mac, enc } = await cryptoKeys(key)
      const ciphertext = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: "AES-CBC", iv: iv as BufferSource },
          enc,
          plaintext as BufferSource,
        ),
      )
      return { ciphertext, tag: await tagOf(mac, aad, iv, ciphertext) }
    },
    async decrypt(key, iv, ciphertext, tag, aad) {
      const { mac, enc } = await cryptoKeys(key)
      if (!equalBytes(await tagOf(mac, aad, iv, ciphertext), tag)) return null
      try {
        return new Uint8Array(
          await crypto.subtle.decrypt(
            { name: "AES-CBC", iv: iv as BufferSource },
            enc,
            ciphertext as BufferSource,
          ),
        )
      } catch {
        return null
      }
    },
  }
}

const backend: Backend = nodeCrypto ? createNodeBackend(nodeCrypto) : createWebBackend()

const headers = new WeakMap<DerivedKey, string>()

/** The protected header, base64url-encoded; it is also the AAD, so it is built once per key. */
function protectedHeader(key: DerivedKey): string {
  let header = headers.get(key)
  if (!header) {
    header = encodeBase64urlText(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid: key.kid }))
    headers.set(key, header)
  }
  return header
}

/** Encrypts a JSON-serialisable payload into a compact JWE. */
export async function encryptJWE(payload: unknown, key: DerivedKey): Promise<string> {
  const header = protectedHeader(key)
  const iv = crypto.getRandomValues(new Uint8Array(16))
  const { ciphertext, tag } = await backend.encrypt(
    key,
    iv,
    encoder.encode(JSON.stringify(payload)),
    encoder.encode(header),
  )
  return `${header}..${encodeBase64url(iv)}.${encodeBase64url(ciphertext)}.${encodeBase64url(tag)}`
}

/** The keys with the one named by `kid` first, so that rotation costs one decrypt, not many. */
function preferKid(keys: readonly DerivedKey[], kid: string): readonly DerivedKey[] {
  const index = keys.findIndex((key) => key.kid === kid)
  return index <= 0 ? keys : [keys[index]!, ...keys.slice(0, index), ...keys.slice(index + 1)]
}

/**
 * Decrypts a compact JWE with the first key that opens it (the one whose thumbprint is the
 * header's `kid` is tried first). Returns the parsed JSON payload, or `null` for anything that
 * is not a valid token under these keys — absence is a value, not an exception.
 */
export async function decryptJWE(token: string, keys: readonly DerivedKey[]): Promise<unknown> {
  const parts = token.split(".")
  if (parts.length !== 5) return null
  const [header, encryptedKey, ivText, ciphertextText, tagText] = parts as [
    string,
    string,
    string,
    string,
    string,
  ]
  // "dir" carries no encrypted key (RFC 7518 §4.5).
  if (encryptedKey !== "") return null
  const headerJSON = decodeBase64urlText(header)
  if (headerJSON === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(headerJSON)
  } catch {
    return null
  }
  if (typeof parsed !== "object" || parsed === null) return null
  const { alg, enc, kid, zip, crit } = parsed as Record<string, unknown>
  // Only the one algorithm pair; no compression, no critical extensions we do not understand.
  if (alg !== "dir" || enc !== "A256CBC-HS512" || zip !== undefined || crit !== undefined)
    return null
  const iv = decodeBase64url(ivText)
  const ciphertext = decodeBase64url(ciphertextText)
  const tag = decodeBase64url(tagText)
  if (
    !iv ||
    iv.length !== 16 ||
    !ciphertext ||
    ciphertext.length === 0 ||
    !tag ||
    tag.length !== 32
  )
    return null
  const aad = encoder.encode(header)
  const ordered = keys.length > 1 && typeof kid === "string" ? preferKid(keys, kid) : keys
  for (const key of ordered) {
    const plaintext = await backend.decrypt(key, iv, ciphertext, tag, aad)
    if (plaintext === null) continue
    try {
      return JSON.parse(decoder.decode(plaintext))
    } catch {
      return null
    }
  }
  return null
}
