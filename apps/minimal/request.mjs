// Node's IncomingMessage → a standard Request, and the client's address: the two places where a
// server decides which of a request's headers it believes.
//
// Latch builds every URL it emits (mailed sign-in links, redirects, OAuth redirect_uri) from
// AUTH_URL, or else from the origin of the Request's URL — so that origin must come from the
// deployment, not from whatever Host or X-Forwarded-Host a client sends. The settings have
// adapter-node's names:
//
//   ORIGIN           the public origin, e.g. https://example.com (or AUTH_URL for Latch alone)
//   PROTOCOL_HEADER  behind a proxy that overwrites it on every request: e.g. x-forwarded-proto
//   HOST_HEADER      behind a proxy that overwrites it on every request: e.g. x-forwarded-host
//   ADDRESS_HEADER   the header with the client's address, e.g. x-forwarded-for
//   XFF_DEPTH        with x-forwarded-for: how many proxies you run (the address is read from
//                    the right; entries further left are whatever the client wrote)
//
// Name a header only when your proxy sets it itself: a header the proxy passes through untouched
// lets anyone choose the host your users' sign-in links point to.
import { Readable } from "node:stream"

/** The proxy settings from the environment. */
export function settingsFrom(env) {
  return {
    origin: env.ORIGIN || undefined,
    protocolHeader: env.PROTOCOL_HEADER?.toLowerCase() || undefined,
    hostHeader: env.HOST_HEADER?.toLowerCase() || undefined,
    addressHeader: env.ADDRESS_HEADER?.toLowerCase() || undefined,
    xffDepth: Number(env.XFF_DEPTH ?? 1),
  }
}

/** The one value of a header Node may give as a list. */
function single(value) {
  return Array.isArray(value) ? value[0] : value
}

/** The origin of the request as the deployment defines it; throws on a malformed one. */
function originOf(req, settings) {
  if (settings.origin) return new URL(settings.origin).origin
  const protocol =
    (settings.protocolHeader && single(req.headers[settings.protocolHeader])) ||
    (req.socket.encrypted ? "https" : "http")
  const host = (settings.hostHeader && single(req.headers[settings.hostHeader])) || req.headers.host
  if (protocol !== "http" && protocol !== "https") throw new TypeError("bad protocol")
  const url = new URL(`${protocol}://${host}`)
  if (url.pathname !== "/" || url.username || url.password) throw new TypeError("bad host")
  return url.origin
}

/** The Request for `req`, or `null` when its origin cannot be built (answer 400). */
export function toRequest(req, settings) {
  let origin
  try {
    origin = originOf(req, settings)
  } catch {
    return null
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
  })
}

/** The client's address: the socket's, or the one your proxy wrote where you said it does. */
export function clientAddressOf(req, settings) {
  if (!settings.addressHeader) return req.socket.remoteAddress
  const value = single(req.headers[settings.addressHeader]) ?? ""
  if (settings.addressHeader !== "x-forwarded-for") return value.trim() || undefined
  const hops = value.split(",").map((hop) => hop.trim())
  return hops[hops.length - settings.xffDepth] || undefined
}
