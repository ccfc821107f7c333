/** `ResponseInternal` → `Response`: status, `Location`, body and one `Set-Cookie` per cookie. */
import { stringifySetCookie } from "cookie"
import type { Cookie, ResponseInternal } from "../types.js"

/** Headers on every answer: auth responses are per user and must never be cached. */
const NO_STORE = "private, no-cache, no-store"

/** Serialises cookies once, at the very end. */
export function appendCookies(headers: Headers, cookies: readonly Cookie[] | undefined): void {
  if (!cookies) return
  for (const { name, value, options } of cookies) {
    headers.append("set-cookie", stringifySetCookie(name, value, options))
  }
}

/** Builds the `Response`. */
export function toResponse(internal: ResponseInternal): Response {
  const headers = new Headers(internal.headers)
  if (!headers.has("cache-control")) headers.set("cache-control", NO_STORE)
  appendCookies(headers, internal.cookies)
  if (internal.redirect) {
    headers.set("location", internal.redirect)
    return new Response(null, { status: internal.status ?? 302, headers })
  }
  const { body } = internal
  if (typeof body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8")
    return new Response(body, { status: internal.status ?? 200, headers })
  }
  headers.set("content-type", "application/json")
  return new Response(JSON.stringify(body ?? null), { status: internal.status ?? 200, headers })
}
