// The flows a browser goes through in the compat apps, over HTTP: a cookie jar, `Origin` on POSTs,
// no redirect followed automatically. Each step is recorded as status, redirect target, the
// cookies it set or deleted (their attributes, not their values) and body, normalized so that two
// servers on different ports with different random tokens compare equal.
import type { Mailbox } from "latch-mailbox"

import {
  SoftAuthenticator,
  type SoftCredential,
} from "../../../packages/core/test/helpers/authenticator.ts"
import { login } from "../../../packages/core/test/helpers/oidc-provider.ts"

/** One step as recorded. */
export interface Step {
  step: string
  status?: number
  location?: string | null
  /** Each cookie the response set or deleted, by name: `set` or `deleted` and its attributes. */
  cookies?: Record<string, string>
  body?: unknown
  /** A step that could not run (a missing form, a failed request). */
  error?: string
}

export interface Server {
  /** The app's public origin (`http://localhost:<port>`), as AUTH_URL / ORIGIN say. */
  origin: string
  /** Where the server listens (`http://127.0.0.1:<port>`). */
  listen: string
  opOrigin: string
  mailbox: Mailbox
}

/** Query parameters whose values are random per run. */
const RANDOM_PARAMS = new Set([
  "state",
  "code_challenge",
  "nonce",
  "code",
  "token",
  "csrfToken",
  "iss",
  "session_state",
])

/** A URL as the comparison sees it: origins named, random values replaced, parameters sorted. */
export function normalizeUrl(value: string | null, server: Server): string | null {
  if (value === null) return null
  let url: URL
  try {
    url = new URL(value, server.origin)
  } catch {
    return value
  }
  const origin =
    url.origin === server.origin
      ? "<app>"
      : url.origin === server.listen
        ? "<listen>"
        : url.origin === server.opOrigin
          ? "<op>"
          : url.origin
  const params = [...url.searchParams]
    .map(([name, v]) => [name, RANDOM_PARAMS.has(name) ? `<${name}>` : normalizeText(v, server)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
  const query = params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join("&")}` : ""
  return `${origin}${url.pathname}${query}${url.hash}`
}

function normalizeText(value: string, server: Server): string {
  return value
    .replaceAll(server.origin, "<app>")
    .replaceAll(server.listen, "<listen>")
    .replaceAll(server.opOrigin, "<op>")
    .replaceAll(new URL(server.origin).host, "<host>")
}

/** A session or other JSON body: timestamps and origins replaced. */
export function normalizeJson(value: unknown, server: Server): unknown {
  if (Array.isArray(value)) return value.map((v) => normalizeJson(v, server))
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (["expires", "emailVerified"].includes(key) && typeof v === "string") out[key] = `<${key}>`
      else if (["csrfToken", "challenge", "sessionToken"].includes(key)) out[key] = `<${key}>`
      else out[key] = normalizeJson(v, server)
    }
    return out
  }
  if (typeof value === "string") return normalizeText(value, server)
  return value
}

/**
 * A `Set-Cookie` line: its name and value, whether it deletes the cookie (an empty value, a
 * `Max-Age` of 0 or less, an `Expires` in the past), and what the comparison sees of it: `set` or
 * `deleted`, then `Path`, `Domain`, `HttpOnly`, `SameSite`, `Secure`, `Partitioned`, and whether
 * `Max-Age` and `Expires` are there (not their values, which depend on the time).
 */
export function parseSetCookie(line: string) {
  const [pair, ...parts] = line.split(";")
  const name = pair!.slice(0, pair!.indexOf("=")).trim()
  const value = pair!.slice(pair!.indexOf("=") + 1).trim()
  const attributes = new Map<string, string>()
  for (const part of parts) {
    const at = part.indexOf("=")
    const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase()
    if (key) attributes.set(key, at < 0 ? "" : part.slice(at + 1).trim())
  }
  const maxAge = attributes.get("max-age")
  const expires = attributes.get("expires")
  const deleted =
    value === "" ||
    (maxAge !== undefined && Number(maxAge) <= 0) ||
    (expires !== undefined && new Date(expires).getTime() <= Date.now())
  const shown = [deleted ? "deleted" : "set"]
  if (attributes.has("path")) shown.push(`Path=${attributes.get("path")}`)
  if (attributes.has("domain")) shown.push(`Domain=${attributes.get("domain")}`)
  for (const [key, label] of [
    ["httponly", "HttpOnly"],
    ["samesite", "SameSite"],
    ["secure", "Secure"],
    ["partitioned", "Partitioned"],
    ["max-age", "Max-Age"],
    ["expires", "Expires"],
  ] as const) {
    if (!attributes.has(key)) continue
    shown.push(key === "samesite" ? `${label}=${attributes.get(key)!.toLowerCase()}` : label)
  }
  return { name, value, deleted, description: shown.join("; ") }
}

/** A browser: one cookie jar, requests to the app's origin sent to where it listens. */
export function browser(server: Server) {
  const jar = new Map<string, string>()
  async function request(
    path: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown; accept?: string } = {},
  ) {
    const method = init.method ?? (init.form || init.json ? "POST" : "GET")
    const target = new URL(path, server.origin)
    const headers: Record<string, string> = { accept: init.accept ?? "text/html" }
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
    let body: string | undefined
    if (method === "POST") {
      headers.origin = server.origin
      if (init.json !== undefined) {
        headers["content-type"] = "application/json"
        body = JSON.stringify(init.json)
      } else {
        headers["content-type"] = "application/x-www-form-urlencoded"
        body = new URLSearchParams(init.form ?? {}).toString()
      }
    }
    const response = await fetch(`${server.listen}${target.pathname}${target.search}`, {
      method,
      headers,
      body,
      redirect: "manual",
    })
    const cookies: Record<string, string> = {}
    for (const line of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(line)
      if (cookie.deleted) jar.delete(cookie.name)
      else jar.set(cookie.name, cookie.value)
      cookies[cookie.name] = cookies[cookie.name]
        ? `${cookies[cookie.name]}, then ${cookie.description}`
        : cookie.description
    }
    const location = response.headers.get("location")
    return { status: response.status, location, cookies, response }
  }
  return { jar, request }
}

type Browser = ReturnType<typeof browser>

/** The first form whose attributes or body match; its action and hidden fields. */
export function findForm(html: string, test: (attributes: string, body: string) => boolean) {
  for (const [, attributes, body] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!test(attributes!, body!)) continue
    const action = (/action="([^"]*)"/.exec(attributes!)?.[1] ?? "").replaceAll("&amp;", "&")
    const hidden: Record<string, string> = {}
    for (const [input] of body!.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const field = /name="([^"]*)"/.exec(input)?.[1]
      if (field) hidden[field] = (/value="([^"]*)"/.exec(input)?.[1] ?? "").replaceAll("&amp;", "&")
    }
    return { action, hidden }
  }
  return undefined
}

/** Recording steps against one server; a flow that breaks is recorded and the others go on. */
export function recorder(server: Server) {
  const steps: Step[] = []
  const record = (
    step: string,
    result: { status: number; location: string | null; cookies: Record<string, string> },
    body?: unknown,
  ) =>
    steps.push({
      step,
      status: result.status,
      location: normalizeUrl(result.location, server),
      cookies: result.cookies,
      ...(body === undefined ? {} : { body: normalizeJson(body, server) }),
    })
  const session = async (b: Browser, step: string) => {
    const result = await b.request("/auth/session", { accept: "application/json" })
    record(step, result, await result.response.json())
  }
  /** The CSRF token when the csrf action answers one (Auth.js's SvelteKit turns it off: 404). */
  const csrf = async (b: Browser): Promise<Record<string, string>> => {
    const result = await b.request("/auth/csrf", { accept: "application/json" })
    if (result.status !== 200) return {}
    return { csrfToken: ((await result.response.json()) as { csrfToken: string }).csrfToken }
  }
  const flow = async (name: string, run: () => Promise<void>) => {
    try {
      await run()
    } catch (error) {
      steps.push({
        step: `${name}: (flow stopped)`,
        error: String((error as Error).stack ?? error),
      })
    }
  }
  return { steps, record, session, csrf, flow }
}

type Recorder = ReturnType<typeof recorder>

/** A page's element by id, as the comparison sees it (its text). */
function element(html: string, id: string): string | undefined {
  return new RegExp(`<p id="${id}">([^<]*)</p>`).exec(html)?.[1]
}

/**
 * Signs `b` in with an email link: asks for it (to come back to `/protected`), reads it in the
 * mailbox and opens it (and, on Latch, presses the button of the page it opens). Steps are named
 * `<prefix>: …`.
 */
async function signInByEmail(
  r: Recorder,
  server: Server,
  b: Browser,
  prefix: string,
  address: string,
) {
  let result = await b.request("/auth/signin/nodemailer", {
    form: { ...(await r.csrf(b)), email: address, callbackUrl: `${server.origin}/protected` },
  })
  r.record(`${prefix}: POST /auth/signin/nodemailer`, result)
  result = await b.request(result.location ?? "/auth/verify-request")
  r.record(`${prefix}: GET the verify-request page`, result)
  const mail = await server.mailbox.nextFor(address, 10_000)
  const link = /https?:\/\/\S+\/callback\/nodemailer\?[^\s"<>]+/.exec(mail.text ?? "")?.[0]
  r.steps.push({
    step: `${prefix}: the mail`,
    body: {
      subject: normalizeJson(mail.subject, server),
      link: normalizeUrl(link ?? null, server),
    },
  })
  if (!link) throw new Error(`no link in the mail:\n${mail.text}`)
  const url = new URL(link)
  result = await b.request(url.pathname + url.search)
  r.record(`${prefix}: GET the link`, result)
  // Latch's link opens a "Continue signing in" page (mail scanners open every link), whose
  // button signs in; Auth.js signs in on the GET.
  const button =
    result.status === 200
      ? findForm(await result.response.text(), (attributes) =>
          attributes.includes("/callback/nodemailer"),
        )
      : undefined
  if (button) {
    result = await b.request(button.action, { form: button.hidden })
    r.record(`${prefix}: POST the link's page`, result)
  }
}

/**
 * Signs out the way some apps do, without the library: a POST to the app's own `/sign-out`,
 * which deletes the session cookie by name. The session must be gone after it.
 */
async function signOutByCookie(r: Recorder, b: Browser, prefix: string) {
  let result = await b.request("/sign-out", { form: {} })
  r.record(`${prefix}: POST /sign-out (deletes the cookie)`, result)
  await r.session(b, `${prefix}: GET /auth/session after /sign-out`)
  result = await b.request("/protected")
  r.record(`${prefix}: GET /protected after /sign-out`, result)
}

/** Runs every flow of compat/app (JWT sessions) against one server. */
export async function runFlows(server: Server): Promise<Step[]> {
  const r = recorder(server)
  const { steps, record, session, csrf, flow } = r

  await flow("credentials, built-in page", async () => {
    const b = browser(server)
    let result = await b.request("/auth/csrf", { accept: "application/json" })
    record("csrf: GET /auth/csrf", result)
    result = await b.request("/protected")
    record("credentials/page: GET /protected signed out", result)
    result = await b.request("/auth/signin?callbackUrl=%2Fprotected")
    const html = await result.response.text()
    const form = findForm(html, (_, body) => /name="password"/.test(body))
    record("credentials/page: GET /auth/signin", result, {
      form: form && {
        action: normalizeUrl(form.action, server),
        fields: Object.keys(form.hidden).sort(),
      },
    })
    if (!form) throw new Error("no credentials form on the built-in sign-in page")
    const post = (fields: Record<string, string>) =>
      b.request(form.action, { form: { ...form.hidden, ...fields } })
    record(
      "credentials/page: POST wrong password",
      await post({ username: "alice", password: "nope" }),
    )
    record(
      "credentials/page: POST locked account",
      await post({ username: "mallory", password: "x" }),
    )
    record(
      "credentials/page: POST right password",
      await post({ username: "alice", password: "wonderland" }),
    )
    await session(b, "credentials/page: GET /auth/session")
    result = await b.request("/protected")
    record(
      "credentials/page: GET /protected",
      result,
      /<p id="user">[^<]*<\/p>/.exec(await result.response.text())?.[0],
    )
    result = await b.request("/api/token", { accept: "application/json" })
    record(
      "credentials/page: GET /api/token (getToken, encode, decode)",
      result,
      await result.response.json(),
    )
    const token = await csrf(b)
    result = await b.request("/auth/session", {
      json: { ...token, data: { name: "Alice L." } },
      accept: "application/json",
    })
    record("credentials/page: POST /auth/session (update)", result, await result.response.json())
    await session(b, "credentials/page: GET /auth/session after update")
    result = await b.request("/auth/signout", { form: { ...(await csrf(b)) } })
    record("credentials/page: POST /auth/signout", result)
    await session(b, "credentials/page: GET /auth/session after sign-out")
  })

  await flow("credentials, form action", async () => {
    const b = browser(server)
    let result = await b.request("/signin?callbackUrl=%2Fprotected")
    const html = await result.response.text()
    const form = findForm(html, (_, body) => /name="password"/.test(body))
    record("credentials/action: GET /signin", result, {
      form: form && { action: normalizeUrl(form.action, server), hidden: form.hidden },
    })
    if (!form) throw new Error("no <SignIn provider=credentials> form on /signin")
    const post = (fields: Record<string, string>) =>
      b.request(
        new URL(form.action, `${server.origin}/signin`).pathname +
          new URL(form.action, `${server.origin}/signin`).search,
        {
          form: { ...form.hidden, ...fields },
        },
      )
    result = await post({ username: "alice", password: "nope" })
    record("credentials/action: POST wrong password", result)
    result = await post({ username: "alice", password: "wonderland" })
    record("credentials/action: POST right password", result)
    await session(b, "credentials/action: GET /auth/session")
    result = await b.request("/")
    const home = await result.response.text()
    const signOut = findForm(home, (attributes) => /signout/.test(attributes))
    record("credentials/action: GET / signed in", result, {
      welcome: /<p id="welcome">[^<]*<\/p>/.exec(home)?.[0],
      signOut: signOut && { action: normalizeUrl(signOut.action, server), hidden: signOut.hidden },
    })
    if (!signOut) throw new Error("no <SignOut> form on /")
    result = await b.request(
      new URL(signOut.action, `${server.origin}/`).pathname +
        new URL(signOut.action, `${server.origin}/`).search,
      {
        form: signOut.hidden,
      },
    )
    record("credentials/action: POST <SignOut>", result)
    await session(b, "credentials/action: GET /auth/session after sign-out")
  })

  await flow("credentials, the app's own action", async () => {
    const b = browser(server)
    let result = await b.request("/login")
    const form = findForm(await result.response.text(), (attributes) => /login/.test(attributes))
    record("login: GET /login", result, { form: form && { hidden: form.hidden } })
    if (!form) throw new Error("no sign-in form on /login")
    const post = async (step: string, fields: Record<string, string>) => {
      const result = await b.request("/login", { form: { ...form.hidden, ...fields } })
      record(step, result, { message: element(await result.response.text(), "message") })
    }
    await post("login: POST wrong password", { username: "bob", password: "nope" })
    await post("login: POST locked account", { username: "mallory", password: "x" })
    result = await b.request("/login", {
      form: { ...form.hidden, username: "bob", password: "canwefixit" },
    })
    record("login: POST right password", result)
    await session(b, "login: GET /auth/session")
    result = await b.request("/protected")
    record("login: GET /protected", result, element(await result.response.text(), "user"))
    await signOutByCookie(r, b, "login")
  })

  await flow("OAuth", async () => {
    const b = browser(server)
    let result = await b.request("/")
    const home = await result.response.text()
    const github = findForm(home, (_, body) => /value="github"/.test(body))
    record("oauth: GET / signed out", result, {
      github: github && { action: normalizeUrl(github.action, server), hidden: github.hidden },
    })
    if (github) {
      const target = new URL(github.action, `${server.origin}/`)
      result = await b.request(target.pathname + target.search, { form: github.hidden })
      record("oauth: POST <SignIn provider=github> form action", result)
    }
    result = await b.request("/auth/signin/oidc", {
      form: { ...(await csrf(b)), callbackUrl: `${server.origin}/protected` },
    })
    record("oauth: POST /auth/signin/oidc", result)
    if (!result.location) throw new Error("no redirect to the OpenID Provider")
    const callback = await login(b, result.location, { account: "alice", returnTo: server.origin })
    steps.push({ step: "oauth: the OP redirects back", location: normalizeUrl(callback, server) })
    const url = new URL(callback)
    result = await b.request(url.pathname + url.search)
    record("oauth: GET /auth/callback/oidc", result)
    await session(b, "oauth: GET /auth/session")
    result = await b.request("/auth/signout", { form: { ...(await csrf(b)) } })
    record("oauth: POST /auth/signout", result)
  })

  let credential: SoftCredential | undefined
  // Full-length ECDSA integers: @simplewebauthn/server 9, Auth.js's, refuses the 1 signature in
  // 128 whose r or s is shorter (Latch accepts them: the guide's "what differs").
  const authenticator = new SoftAuthenticator({ signatures: "full-length" })
  const rpId = new URL(server.origin).hostname
  await flow("email", async () => {
    const b = browser(server)
    await signInByEmail(r, server, b, "email", "dora@example.com")
    await session(b, "email: GET /auth/session")

    // Signed in: register a passkey.
    let result = await b.request("/auth/webauthn-options/passkey?action=register", {
      accept: "application/json",
    })
    const register = (await result.response.json()) as {
      action: string
      options: { challenge: string; user: { id: string } }
    }
    record("passkey: GET webauthn-options (register)", result, {
      action: register.action,
      user: register.options?.user && {
        name: (register.options.user as Record<string, unknown>).name,
      },
    })
    const created = authenticator.create(
      { challenge: register.options.challenge, origin: server.origin, rpId },
      register.options.user.id,
    )
    credential = created.credential
    result = await b.request("/auth/callback/passkey", {
      form: { ...(await csrf(b)), action: "register", data: JSON.stringify(created.response) },
    })
    record("passkey: POST callback (register)", result)
    await session(b, "passkey: GET /auth/session after register")
  })

  await flow("passkey sign-in", async () => {
    if (!credential) throw new Error("no passkey registered")
    const b = browser(server)
    let result = await b.request("/auth/webauthn-options/passkey", { accept: "application/json" })
    const options = (await result.response.json()) as {
      action: string
      options: { challenge: string }
    }
    record("passkey: GET webauthn-options (sign in)", result, { action: options.action })
    const assertion = authenticator.get(credential, {
      challenge: options.options.challenge,
      origin: server.origin,
      rpId,
    })
    result = await b.request("/auth/callback/passkey", {
      form: { ...(await csrf(b)), action: "authenticate", data: JSON.stringify(assertion) },
    })
    record("passkey: POST callback (sign in)", result)
    await session(b, "passkey: GET /auth/session")
  })

  return steps
}

/**
 * Runs every flow of compat/app-db (database sessions, configured from the platform's bindings)
 * against one server.
 */
export async function runDatabaseFlows(server: Server): Promise<Step[]> {
  const r = recorder(server)
  const { record, session, csrf, flow } = r
  const rows = async (b: Browser, step: string) => {
    const result = await b.request("/api/rows", { accept: "application/json" })
    record(step, result, await result.response.json())
  }

  await flow("db: email", async () => {
    const b = browser(server)
    await rows(b, "db: GET /api/rows before")
    let result = await b.request("/protected")
    record("db: GET /protected signed out", result)
    // The administrator, a row of the users table before anyone signed in.
    await signInByEmail(r, server, b, "db/email", "ada@example.com")
    await session(b, "db/email: GET /auth/session")
    result = await b.request("/protected")
    const page = await result.response.text()
    record("db/email: GET /protected", result, {
      user: element(page, "user"),
      columns: element(page, "columns"),
    })
    await signOutByCookie(r, b, "db/email")
    // The row stays: the cookie is gone, not the session.
    await rows(b, "db/email: GET /api/rows after /sign-out")
  })

  await flow("db: OAuth", async () => {
    const b = browser(server)
    let result = await b.request("/auth/signin/oidc", {
      form: { ...(await csrf(b)), callbackUrl: `${server.origin}/protected` },
    })
    record("db/oauth: POST /auth/signin/oidc", result)
    if (!result.location) throw new Error("no redirect to the OpenID Provider")
    const callback = await login(b, result.location, { account: "alice", returnTo: server.origin })
    const url = new URL(callback)
    result = await b.request(url.pathname + url.search)
    record("db/oauth: GET /auth/callback/oidc", result)
    // A new user: the role column's default.
    await session(b, "db/oauth: GET /auth/session")
    result = await b.request("/protected")
    record("db/oauth: GET /protected", result, element(await result.response.text(), "user"))
    result = await b.request("/auth/signout", { form: { ...(await csrf(b)) } })
    record("db/oauth: POST /auth/signout", result)
    await session(b, "db/oauth: GET /auth/session after sign-out")
    await rows(b, "db/oauth: GET /api/rows after sign-out")
  })

  return r.steps
}
