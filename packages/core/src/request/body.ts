/**
 * The body of a POST: form-encoded, multipart or JSON, read with a size cap. Anything else is
 * an empty body. Bad input becomes a typed 4xx error, never an exception from a parser.
 */
import { InvalidRequest, PayloadTooLarge } from "../errors.js"

/** The largest body Latch reads: sign-in forms and session updates are far smaller. */
export const MAX_BODY_BYTES = 64 * 1024

/** A parsed body: field → value (the first value of repeated form fields). */
export type RequestBody = Record<string, unknown>

async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length")
  if (declared !== null && Number(declared) > limit) {
    throw new PayloadTooLarge(`The request body is larger than ${limit} bytes`)
  }
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new PayloadTooLarge(`The request body is larger than ${limit} bytes`)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function fromEntries(entries: Iterable<[string, FormDataEntryValue]>): RequestBody {
  const body: RequestBody = {}
  for (const [key, value] of entries) {
    if (Object.hasOwn(body, key) || typeof value !== "string") continue
    // defineProperty: a field named "__proto__" is data, not the object's prototype.
    Object.defineProperty(body, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return body
}

/** Reads and parses the body of a POST. */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<RequestBody> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()
  let bytes: Uint8Array
  try {
    bytes = await readBytes(request, limit)
  } catch (error) {
    if (error instanceof PayloadTooLarge) throw error
    throw new InvalidRequest("The request body could not be read", { cause: error })
  }
  if (bytes.length === 0) return {}
  if (type === "application/x-www-form-urlencoded") {
    return fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)))
  }
  if (type === "application/json") {
    let value: unknown
    try {
      value = JSON.parse(new TextDecoder().decode(bytes))
    } catch (error) {
      throw new InvalidRequest("The request body is not valid JSON", { cause: error })
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new InvalidRequest("The JSON request body must be an object")
    }
    return value as RequestBody
  }
  if (type === "multipart/form-data") {
    try {
      const form = await new Response(bytes as BodyInit, {
        headers: { "content-type": request.headers.get("content-type")! },
      }).formData()
      return fromEntries(form.entries())
    } catch (error) {
      throw new InvalidRequest("The multipart request body could not be parsed", { cause: error })
    }
  }
  return {}
}
