/**
 * Origin patterns, for the deployer's list of origins a redirect proxy may forward to:
 * `https://staging.example.com`, or with `*` in the host for preview deployments whose names
 * are generated — `https://myapp-*-team.vercel.app`.
 *
 * A `*` stands for one or more letters, digits or hyphens, never a dot: a pattern widens
 * within one DNS label only, so `https://*.example.com` matches `https://pr-1.example.com` but
 * not `https://a.b.example.com`, and no pattern reaches another registrable domain. A label that
 * is `*` alone right under a shared hosting domain (`https://*.vercel.app`) is refused: it would
 * match every other customer's deployments. The scheme and port are compared exactly, on parsed
 * origins, never by prefix.
 */
import { InvalidCallbackUrl } from "../errors.js"

/** A parsed pattern: a predicate on origins. */
export type OriginPattern = (origin: string) => boolean

/** Domains under which anyone can get a host name: a bare `*` right under them is refused. */
const SHARED_HOSTING = new Set([
  "vercel.app",
  "netlify.app",
  "pages.dev",
  "workers.dev",
  "onrender.com",
  "herokuapp.com",
  "fly.dev",
  "github.io",
  "web.app",
  "firebaseapp.com",
  "azurewebsites.net",
  "amplifyapp.com",
  "up.railway.app",
])

/** One DNS label of a pattern → a regular expression source; `*` → `[a-z0-9-]+`. */
function labelSource(label: string): string {
  return label
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[a-z0-9-]+")
}

/**
 * Parses one entry; throws `InvalidCallbackUrl` naming the entry when it is not an http(s)
 * origin (no path, query, credentials), or when a `*` is anywhere but in the host.
 */
export function parseOriginPattern(entry: string): OriginPattern {
  const invalid = (why: string) =>
    new InvalidCallbackUrl(
      `redirectProxyAllowedOrigins: ${JSON.stringify(entry)} ${why}; write an origin such as "https://myapp-*-team.vercel.app".`,
    )
  const match = /^(https?):\/\/([^/?#@]+?)(?::(\d{1,5}))?\/?$/i.exec(entry.trim())
  if (!match) throw invalid("is not an http(s) origin")
  const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined]
  const labels = host.toLowerCase().split(".")
  if (labels.some((label) => !/^[a-z0-9*-]+$/.test(label))) {
    throw invalid("has a host that is not a DNS name")
  }
  if (labels.length < 2 && host.includes("*")) throw invalid("puts a wildcard in a one-label host")
  if (labels.slice(-2).some((label) => label.includes("*"))) {
    // `https://*.com` or `https://app.*` would widen past one site.
    throw invalid("puts a wildcard in the registrable domain")
  }
  if (labels[0] === "*" && SHARED_HOSTING.has(labels.slice(1).join("."))) {
    throw invalid("matches every site of a shared hosting domain")
  }
  const defaultPort = scheme.toLowerCase() === "https" ? "443" : "80"
  const portPart = port === undefined || port === defaultPort ? "" : `:${Number(port)}`
  const source = `^${scheme.toLowerCase()}://${labels.map(labelSource).join("\\.")}${portPart.replace(":", "\\:")}$`
  const pattern = new RegExp(source)
  return (origin) => pattern.test(origin)
}

/** Parses a list from the configuration or `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma list). */
export function parseOriginPatterns(
  entries: readonly string[] | string | undefined,
): OriginPattern[] {
  if (entries === undefined) return []
  const list = typeof entries === "string" ? entries.split(",") : entries
  return list.filter((entry) => entry.trim() !== "").map(parseOriginPattern)
}

/** Whether `origin` (as `URL.origin` writes it) matches one of the patterns. */
export function isAllowedOrigin(origin: string, patterns: readonly OriginPattern[]): boolean {
  return patterns.some((matches) => matches(origin))
}
