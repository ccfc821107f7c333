/**
 * Values too long for one cookie are split across `name.0`, `name.1`, … and joined back.
 *
 * Browsers must accept cookies of at least 4096 bytes, counting the name, value and attributes
 * (RFC 6265 §6.1); longer ones may be dropped silently, so each chunk stays under that.
 */
import { stringifySetCookie } from "cookie"
import type { CookieSerializeOptions } from "../types/cookies.js"

/** The size every browser accepts for one cookie (RFC 6265 §6.1). */
export const MAX_COOKIE_SIZE = 4096

/**
 * Bytes left for the value once the name (with a chunk suffix) and the attributes are counted.
 * The `Expires` attribute that a Max-Age cookie may carry is counted too.
 */
export function chunkSize(name: string, options: CookieSerializeOptions): number {
  const empty = stringifySetCookie(`${name}.99`, "", {
    ...options,
    expires: new Date(0),
    maxAge: options.maxAge ?? 2_592_000,
  })
  return MAX_COOKIE_SIZE - empty.length
}

/**
 * Splits a value into chunks whose encoded form (as `Set-Cookie` carries it, percent-encoded)
 * is at most `size` bytes; one chunk when it fits. Chunks end on whole characters, so each
 * decodes on its own and they join back to the value.
 */
export function splitValue(value: string, size: number): string[] {
  if (encodeURIComponent(value).length <= size) return [value]
  const chunks: string[] = []
  let chunk = ""
  let length = 0
  for (const character of value) {
    const encoded = encodeURIComponent(character).length
    if (length + encoded > size && chunk !== "") {
      chunks.push(chunk)
      chunk = ""
      length = 0
    }
    chunk += character
    length += encoded
  }
  if (chunk !== "") chunks.push(chunk)
  return chunks
}

/** The index of a chunk cookie's name (`name.3` → 3), or `-1` when it is not a chunk of `name`. */
export function chunkIndex(cookieName: string, name: string): number {
  if (cookieName.length <= name.length + 1 || !cookieName.startsWith(name)) return -1
  if (cookieName[name.length] !== ".") return -1
  const suffix = cookieName.slice(name.length + 1)
  for (let i = 0; i < suffix.length; i++) {
    const c = suffix.charCodeAt(i)
    if (c < 48 || c > 57) return -1
  }
  return suffix.length > 3 ? -1 : Number(suffix)
}

/**
 * Joins `name.0`, `name.1`, … back into a value; falls back to the plain `name` cookie. A gap in
 * the chunks means the value is incomplete: it is not joined.
 */
export function joinChunks(
  cookies: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const chunks: string[] = []
  for (const [cookieName, value] of Object.entries(cookies)) {
    const index = chunkIndex(cookieName, name)
    if (index >= 0 && value !== undefined) chunks[index] = value
  }
  if (chunks.length === 0) return cookies[name]
  for (let i = 0; i < chunks.length; i++) if (chunks[i] === undefined) return undefined
  return chunks.join("")
}
