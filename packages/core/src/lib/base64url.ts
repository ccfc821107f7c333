/** Base64url (RFC 4648 §5) without padding, for JWE segments and random tokens. */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Bytes → base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  if (typeof Buffer !== "undefined")
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")
  let binary = ""
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** base64url → bytes; `null` when the input has characters outside the alphabet. */
export function decodeBase64url(text: string): Uint8Array | null {
  if (!isBase64url(text)) return null
  if (typeof Buffer !== "undefined") return new Uint8Array(Buffer.from(text, "base64url"))
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)
  try {
    const binary = atob(padded)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return null
  }
}

/** Whether every character is of the base64url alphabet, and the length is possible. */
export function isBase64url(text: string): boolean {
  if (text.length % 4 === 1) return false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const ok =
      (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95
    if (!ok) return false
  }
  return true
}

/** UTF-8 text → base64url. */
export function encodeBase64urlText(text: string): string {
  return encodeBase64url(encoder.encode(text))
}

/** base64url → UTF-8 text; `null` when not base64url. */
export function decodeBase64urlText(text: string): string | null {
  const bytes = decodeBase64url(text)
  return bytes === null ? null : decoder.decode(bytes)
}
