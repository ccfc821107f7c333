// What every answer of the demo must satisfy, whatever was sent. Each check returns a list of
// violations (empty when it holds); `checkResponse` runs them all and counts each check.

/**
 * How long an answer may take, in ms, before the fuzzer calls it hung (`large`: a request with a
 * multi-megabyte body). A hang check, not a latency goal: latency is measured in bench/, and each
 * run reports its own median, p99 and max. So the bound leaves room for what a loaded 2-core
 * machine does to an honest request — `npm test` runs this fuzz, 12 requests at a time, while
 * other work shares the cores, and a password sign-up runs a full scrypt: one took 2,078 ms there
 * against a 2 s bound — yet stays far below the HTTP client's 60 s timeout (lib/fuzz/http.mjs),
 * so a request that never ends is still told apart from one that is slow.
 */
export const BOUND_MS = { normal: 15_000, large: 30_000 }

const SESSION_COOKIE = /^(__Secure-|__Host-)?(authjs|latch)\.session-token(\.\d+)?$/

/** Stack frames, error dumps and paths of the server's files. */
const LEAKS = [
  [/\n\s*at (async )?[\w$.<>[\] ]*\(?(file:|node:|\/)/, "a stack frame"],
  [/\\n\s*at (async )?[\w$.<>[\] ]*\(?(file:|node:|\/)/, "an escaped stack frame"],
  [/\.m?[jt]s:\d+:\d+/, "a source location"],
  [/\/work\/|node_modules|file:\/\/\//, "a server file path"],
  [/\b(Type|Reference|Syntax|Range)Error\b/, "a JavaScript error name"],
]

/** Every form of the secret that could show in an answer. */
export function secretForms(secret) {
  return [
    secret,
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
    Buffer.from(secret).toString("hex"),
    encodeURIComponent(secret),
  ]
}

/** Node's limit on a request's headers, and SvelteKit's (adapter-node's default) on a body. */
export const HEADER_LIMIT = 16 * 1024
export const BODY_LIMIT = 512 * 1024

/**
 * Whether the server may refuse a request by closing the connection: Node answers headers over
 * its limit with a 431, and adapter-node a body over its limit with a 413, then close the
 * connection; when the client is still writing, the close arrives as a reset before the answer.
 */
export function mayBeCutOff(request) {
  const headerBytes = request.headers.reduce(
    (total, [name, value]) => total + name.length + value.length + 4,
    request.path.length,
  )
  return headerBytes > HEADER_LIMIT - 512 || (request.bodyLength ?? 0) > BODY_LIMIT
}

/**
 * The status an answer really carries: SvelteKit answers a remote function's failure with a
 * 200 whose JSON says `{ type: "error", status }`.
 */
export function effectiveStatus(response) {
  if (response.status === 200 && /^\{"type":"error"/.test(response.body ?? "")) {
    try {
      const status = JSON.parse(response.body).status
      if (typeof status === "number") return status
    } catch {
      // Not the remote answer.
    }
  }
  return response.status
}

/** No 5xx, and an answer at all (unless cut off as above). */
export function checkStatus(request, response) {
  if (response.error && /ECONNRESET|EPIPE/.test(response.error) && mayBeCutOff(request)) return []
  if (response.error) return [`no answer: ${response.error}`]
  const status = effectiveStatus(response)
  if (status >= 500) return [`status ${status}`]
  return []
}

/** No stack trace, file path or secret in the body or the headers. */
export function checkLeaks(response, secrets) {
  const text = [
    response.body ?? "",
    ...(response.headers ?? []).map(([n, v]) => `${n}: ${v}`),
  ].join("\n")
  const found = []
  for (const [pattern, what] of LEAKS) {
    const match = pattern.exec(text)
    if (match)
      found.push(`${what}: …${text.slice(Math.max(0, match.index - 60), match.index + 80)}…`)
  }
  for (const secret of secrets) if (text.includes(secret)) found.push("the secret")
  return found
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", "#x2F": "/" }
const unescapeHtml = (text) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27|#x2F);/g, (_, name) => ENTITIES[name])

/** The URLs an answer points the browser to: Location, Refresh, HTML attributes, JSON fields. */
export function urlsOf(response) {
  const urls = []
  for (const [name, value] of response.headers ?? []) {
    if (name === "location" || name === "content-location") urls.push([name, value])
    if (name === "refresh") urls.push([name, value.replace(/^\s*\d+\s*;\s*url=/i, "")])
  }
  const body = response.body ?? ""
  const type = (response.headers ?? []).find(([name]) => name === "content-type")?.[1] ?? ""
  if (type.includes("html")) {
    for (const match of body.matchAll(
      /\s(href|action|src|formaction|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi,
    ))
      urls.push([`${match[1]} attribute`, unescapeHtml(match[2] ?? match[3])])
    for (const match of body.matchAll(
      /http-equiv=["']?refresh["']?[^>]*content=["'][^"']*url=([^"']*)/gi,
    ))
      urls.push(["meta refresh", unescapeHtml(match[1])])
  }
  if (type.includes("json") || /^\s*[{[]/.test(body)) {
    try {
      walkJson(JSON.parse(body), urls)
    } catch {
      // Not JSON, or cut at the kept size: nothing to walk.
    }
  }
  return urls
}

const URL_KEYS = new Set([
  "url",
  "location",
  "redirect",
  "redirectTo",
  "callbackUrl",
  "href",
  "action",
])

function walkJson(value, urls, depth = 0) {
  if (depth > 50 || value === null || typeof value !== "object") return
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === "string" && URL_KEYS.has(key)) urls.push([`JSON ${key}`, inner])
    else walkJson(inner, urls, depth + 1)
    // SvelteKit's action answers carry their data as a serialized string: look inside it too.
    if (key === "data" && typeof inner === "string" && /^[[{]/.test(inner)) {
      try {
        walkJson(JSON.parse(inner), urls, depth + 1)
      } catch {
        // Not JSON.
      }
    }
  }
}

/** Whether a URL, resolved as a browser would against the page, stays on the app's origin. */
export function staysOnOrigin(url, origin) {
  const trimmed = url.trim()
  if (trimmed === "" || trimmed.startsWith("#")) return true
  // Mail links in a page are no navigation off the site; nor is an image inlined as a `data:`
  // URL (the built-in pages' icon), which loads nothing from anywhere.
  if (/^mailto:/i.test(trimmed)) return true
  if (/^data:image\/(png|gif|jpeg|webp|svg\+xml)[;,]/i.test(trimmed)) return true
  let resolved
  try {
    resolved = new URL(url, `${origin}/`)
  } catch {
    // A browser would not follow it either.
    return true
  }
  return resolved.origin === origin
}

/** Every URL in the answer is relative or on the app's origin. */
export function checkUrls(response, origin) {
  return urlsOf(response)
    .filter(([, url]) => !staysOnOrigin(url, origin))
    .map(([where, url]) => `${where} off the origin: ${url.slice(0, 200)}`)
}

/** The session cookies an answer sets with a value (not the ones it clears). */
export function sessionCookiesSet(response) {
  const set = []
  for (const [name, value] of response.headers ?? []) {
    if (name !== "set-cookie") continue
    const [pair, ...attributes] = value.split(";")
    const eq = pair.indexOf("=")
    const cookieName = pair.slice(0, eq).trim()
    const cookieValue = pair.slice(eq + 1).trim()
    if (!SESSION_COOKIE.test(cookieName) || cookieValue === "") continue
    const expired = attributes.some((attribute) => {
      const [key, val = ""] = attribute.split("=")
      if (/^\s*max-age\s*$/i.test(key)) return Number(val) <= 0
      if (/^\s*expires\s*$/i.test(key)) return Date.parse(val) < Date.now()
      return false
    })
    if (!expired) set.push(`${cookieName}=${cookieValue}`)
  }
  return set
}

/**
 * A session cookie only after a sign-in the generator knows completed, or as the renewal of the
 * intact session the request carried.
 */
export function checkSessionCookie(request, response) {
  const set = sessionCookiesSet(response)
  if (!set.length || request.signIn || request.intactSession) return []
  return [`a session cookie without a completed sign-in: ${set[0].slice(0, 80)}`]
}

/** Under the hang bound (a larger one for multi-megabyte bodies). */
export function checkLatency(request, response) {
  const bound = request.large ? BOUND_MS.large : BOUND_MS.normal
  return response.latency > bound
    ? [`${Math.round(response.latency)} ms, over the ${bound} ms bound`]
    : []
}

export const INVARIANTS = ["status", "leaks", "urls", "sessionCookie", "latency"]

/** Runs every check; `counts` gets one more check per invariant. */
export function checkResponse(request, response, { origin, secrets, counts }) {
  if (response.unsendable) return []
  const violations = []
  const run = (name, list) => {
    counts[name] = (counts[name] ?? 0) + 1
    for (const message of list) violations.push(`${name}: ${message}`)
  }
  run("status", checkStatus(request, response))
  if (!response.error) {
    run("leaks", checkLeaks(response, secrets))
    run("urls", checkUrls(response, origin))
    run("sessionCookie", checkSessionCookie(request, response))
  }
  run("latency", checkLatency(request, response))
  return violations
}
