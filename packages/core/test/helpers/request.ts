/**
 * Drives `Auth` as a browser would: real `Request` objects, and a cookie jar that keeps what
 * responses set for the next request.
 */
import { createHash } from "node:crypto"
import { parseSetCookie } from "cookie"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import Credentials from "../../src/providers/credentials.js"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "a-test-secret-that-is-long-enough-0123456789"

/** A user the test credentials provider accepts. */
export const ALICE = {
  id: "u1",
  name: "Alice",
  email: "alice@example.com",
  image: "https://img.example/a.png",
}

/** A configuration with one credentials provider accepting alice / wonderland. */
export function testConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { type: "password" } },
        authorize: (credentials) =>
          credentials.username === "alice" && credentials.password === "wonderland" ? ALICE : null,
      }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  }
}

/** A browser-like client: remembers cookies, builds requests, calls `Auth`. */
export class Browser {
  cookies = new Map<string, string>()
  /** The IP address the platform reports for this browser (`Auth`'s `clientAddress`). */
  clientAddress: string | undefined
  /** The `User-Agent` header it sends, if any. */
  userAgent: string | undefined
  /** The `Auth` this browser talks to: another module instance stands for another server. */
  auth: typeof Auth = Auth
  constructor(
    public config: AuthConfig,
    public origin = ORIGIN,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  /** Applies a response's Set-Cookie headers to the jar, as a browser does. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header)
      const expired =
        cookie.value === "" ||
        cookie.maxAge === 0 ||
        (cookie.expires && cookie.expires.getTime() <= Date.now())
      if (expired) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value ?? "")
    }
  }

  async fetch(
    path: string,
    init: RequestInit & { form?: Record<string, string>; json?: unknown } = {},
  ) {
    const headers = new Headers(init.headers)
    if (this.cookies.size && !headers.has("cookie")) headers.set("cookie", this.cookieHeader())
    if (this.userAgent && !headers.has("user-agent")) headers.set("user-agent", this.userAgent)
    let body = init.body
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(init.form).toString()
    } else if (init.json !== undefined) {
      headers.set("content-type", "application/json")
      body = JSON.stringify(init.json)
    }
    const method = init.method ?? (body !== undefined ? "POST" : "GET")
    const request = new Request(new URL(path, this.origin), { ...init, method, headers, body })
    const response = await this.auth(request, this.config, { clientAddress: this.clientAddress })
    this.store(response)
    return response
  }

  async csrfToken(): Promise<string> {
    const response = await this.fetch("/auth/csrf")
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    return csrfToken
  }

  /** Signs in through the credentials callback, as the built-in form does. */
  async signIn(username = "alice", password = "wonderland", extra: Record<string, string> = {}) {
    const csrfToken = await this.csrfToken()
    return this.fetch("/auth/callback/credentials", {
      form: { csrfToken, username, password, ...extra },
    })
  }

  async session(): Promise<Record<string, any> | null> {
    const response = await this.fetch("/auth/session")
    return (await response.json()) as Record<string, any> | null
  }
}

/** One `Set-Cookie` line of a response, raw and parsed. */
export interface SetCookieLine {
  line: string
  cookie: ReturnType<typeof parseSetCookie>
}

/** The `Set-Cookie` lines of a response, by cookie name. */
export function setCookies(response: Response): Map<string, SetCookieLine> {
  const lines = new Map<string, SetCookieLine>()
  for (const line of response.headers.getSetCookie()) {
    const cookie = parseSetCookie(line)
    lines.set(cookie.name, { line, cookie })
  }
  return lines
}

/** Whether a parsed `Set-Cookie` deletes its cookie. */
export function isDeletion(cookie: ReturnType<typeof parseSetCookie>): boolean {
  return (
    cookie.value === "" ||
    cookie.maxAge === 0 ||
    (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now())
  )
}

/** The names of the cookies a response deletes. */
export function deletedCookies(response: Response): string[] {
  return [...setCookies(response).values()]
    .filter(({ cookie }) => isDeletion(cookie))
    .map(({ cookie }) => cookie.name)
}

/** The names of the cookies a response sets (not deletes). */
export function writtenCookies(response: Response): string[] {
  return [...setCookies(response).values()]
    .filter(({ cookie }) => !isDeletion(cookie))
    .map(({ cookie }) => cookie.name)
}

/** A request to `Auth` with no cookie jar: for one-off inputs a browser would not send. */
export function authRequest(path: string, init: RequestInit = {}, origin = ORIGIN): Request {
  return new Request(new URL(path, origin), init)
}

/** What the database holds for a session cookie's token (`session.hashTokens`, the default). */
export function storedTokenOf(token: string): string {
  return createHash("sha256").update(token).digest("hex")
}
