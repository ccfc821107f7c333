// @latch/core's stored and wire formats: the cookies it sets (observed on the wire, through
// `Auth`, over http and https), the error classes' `type` and `kind`, and the `?error=` and
// `?code=` values the declarations name. One fact a line, `key = value`.
import { pathToFileURL } from "node:url"
import { join } from "node:path"
import { interfaceMembers, unionMembers } from "./declarations.mjs"

const SECRET = "a-secret-of-at-least-thirty-two-characters-for-the-report"

/** @param {string} packageDir @param {{ subpath: string, types: string }[]} entries */
export async function coreFormats(packageDir, entries) {
  const load = (file) => import(pathToFileURL(join(packageDir, "dist", file)).href)
  const core = await load("index.js")
  const errors = await load("errors.js")
  const Credentials = (await load("providers/credentials.js")).default
  const GitHub = (await load("providers/github.js")).default
  const facts = []
  for (const origin of ["http://127.0.0.1:3000", "https://app.example"]) {
    const scheme = origin.split(":")[0]
    for (const cookie of await observedCookies(core, origin, Credentials, GitHub)) {
      for (const [attribute, value] of Object.entries(cookie)) {
        if (attribute === "name") continue
        facts.push(`cookie.${scheme}.${cookie.name}.${attribute} = ${value}`)
      }
    }
  }
  for (const [name, value] of Object.entries(errors)) {
    if (typeof value !== "function" || !(value.prototype instanceof errors.AuthError)) continue
    facts.push(`error.${name}.type = ${value.type}`)
    facts.push(`error.${name}.kind = ${value.kind}`)
    const code = new value().code
    if (code !== undefined) facts.push(`error.${name}.code = ${code}`)
  }
  const errorsEntry = entries.find((entry) => entry.subpath === "./errors")
  for (const [alias, members] of unionMembers(errorsEntry.types)) {
    // The values that travel in `?error=` and `?code=`, and in `type`.
    if (!/(Code|Param|ErrorType)$/.test(alias)) continue
    for (const member of members) facts.push(`union.${alias} = ${member}`)
  }
  // The events an app listens to (their payloads' types are in the types report).
  const typesEntry = entries.find((entry) => entry.subpath === "./types")
  for (const name of interfaceMembers(typesEntry.types, "EventCallbacks")) {
    facts.push(`event = ${name}`)
  }
  return facts
}

/**
 * The cookies `Auth` sets in the flows that set them: a CSRF token, a credentials sign-in (the
 * session and the callback URL) and an OAuth sign-in's start (PKCE and state). Each as
 * `{ name, …attributes }`, the value left out.
 */
async function observedCookies(core, origin, Credentials, GitHub) {
  const config = {
    secret: SECRET,
    trustHost: true,
    raw: core.raw,
    // The start-up warnings (no AUTH_URL on a request's origin) say nothing about the formats.
    logger: { warn() {} },
    providers: [
      Credentials({ authorize: () => ({ id: "1", name: "Ada", email: "ada@example.com" }) }),
      GitHub({ clientId: "client", clientSecret: "secret" }),
    ],
  }
  const seen = new Map()
  const keep = (result) => {
    for (const { name, options } of result.cookies ?? []) {
      const attributes = Object.fromEntries(
        Object.entries(options ?? {})
          .filter(([key, value]) => value !== undefined && key !== "expires")
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      )
      seen.set(name, { name, ...attributes })
    }
  }
  const csrf = await core.Auth(new Request(`${origin}/auth/csrf`), config)
  keep(csrf)
  const csrfCookie = csrf.cookies.find((cookie) => cookie.name.endsWith("authjs.csrf-token"))
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    cookie: `${csrfCookie.name}=${csrfCookie.value}`,
  }
  const body = new URLSearchParams({ csrfToken: csrf.body.csrfToken, callbackUrl: `${origin}/` })
  for (const path of ["callback/credentials", "signin/github"]) {
    keep(
      await core.Auth(
        new Request(`${origin}/auth/${path}`, { method: "POST", headers, body }),
        config,
      ),
    )
  }
  return [...seen.values()]
}
