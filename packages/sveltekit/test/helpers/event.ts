/**
 * SvelteKit-like request events built by hand: a `Request`, its `URL`, empty `locals`, and a
 * `cookies` object that records what was set. `Browser` drives a `handle` hook as a browser
 * would, keeping cookies between requests.
 */
import type { Cookies, Handle, RequestEvent } from "@sveltejs/kit"
import { vi } from "vitest"
import { formOf } from "../../../core/test/helpers/continue-page.js"

export const ORIGIN = "http://localhost:5173"
export const SECRET = "sveltekit-test-secret-long-enough-0123456789"
export const SESSION_COOKIE = "authjs.session-token"
export const CSRF_COOKIE = "authjs.csrf-token"

/** One call to `cookies.set` or `cookies.delete`. */
export interface CookieWrite {
  kind: "set" | "delete"
  name: string
  value: string
  options: Record<string, unknown>
}

/** Whether a recorded write (or a parsed Set-Cookie) removes its cookie. */
export function isDeletion(write: Pick<CookieWrite, "kind" | "value" | "options">): boolean {
  const { maxAge, expires } = write.options as { maxAge?: number; expires?: Date }
  return (
    write.kind === "delete" ||
    write.value === "" ||
    maxAge === 0 ||
    (expires instanceof Date && expires.getTime() <= Date.now())
  )
}

/** A SvelteKit `Cookies` implementation over a request's Cookie header that records writes. */
export function createCookies(header: string | null): Cookies & { writes: CookieWrite[] } {
  const incoming = new Map<string, string>()
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=")
    if (index > 0)
      incoming.set(part.slice(0, index).trim(), decodeURIComponent(part.slice(index + 1).trim()))
  }
  const writes: CookieWrite[] = []
  const current = () => {
    const values = new Map(incoming)
    for (const write of writes) {
      if (isDeletion(write)) values.delete(write.name)
      else values.set(write.name, write.value)
    }
    return values
  }
  return {
    writes,
    get: (name) => current().get(name),
    getAll: () => [...current()].map(([name, value]) => ({ name, value })),
    set: (name, value, options) => {
      writes.push({ kind: "set", name, value, options: { ...options } })
    },
    delete: (name, options) => {
      writes.push({ kind: "delete", name, value: "", options: { ...options } })
    },
    serialize: (name, value) => `${name}=${encodeURIComponent(value)}`,
  } as Cookies & { writes: CookieWrite[] }
}

export interface EventInit extends RequestInit {
  /** A form body (`application/x-www-form-urlencoded`); the method defaults to POST. */
  form?: Record<string, string>
  /** A JSON body; the method defaults to POST. */
  json?: unknown
  /** Cookies the request carries. */
  cookies?: Map<string, string> | Record<string, string>
  origin?: string
}

export type TestEvent = RequestEvent & { cookies: Cookies & { writes: CookieWrite[] } }

/** A `RequestEvent` for `path` (relative to the origin). */
export function createEvent(path: string, init: EventInit = {}): TestEvent {
  const { form, json, cookies, origin = ORIGIN, ...rest } = init
  const headers = new Headers(rest.headers)
  const jar = cookies instanceof Map ? [...cookies] : Object.entries(cookies ?? {})
  if (jar.length && !headers.has("cookie"))
    headers.set("cookie", jar.map(([name, value]) => `${name}=${value}`).join("; "))
  let body = rest.body
  if (form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(form).toString()
  } else if (json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(json)
  }
  const method = rest.method ?? (body !== undefined && body !== null ? "POST" : "GET")
  const url = new URL(path, origin)
  const request = new Request(url, { ...rest, method, headers, body })
  return {
    request,
    url,
    locals: {},
    params: {},
    route: { id: null },
    platform: undefined,
    cookies: createCookies(headers.get("cookie")),
    fetch: globalThis.fetch,
    getClientAddress: () => "127.0.0.1",
    setHeaders: () => {},
    isDataRequest: false,
    isSubRequest: false,
  } as unknown as TestEvent
}

/** The `resolve` of a handle: a spy answering "page". */
export function createResolve() {
  return vi.fn(async (_event: RequestEvent) => new Response("page"))
}

/** One parsed `Set-Cookie` line. */
export interface SetCookie {
  name: string
  value: string
  attributes: Record<string, string>
  deleted: boolean
}

/** The `Set-Cookie` lines of a response, parsed (enough for tests). */
export function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair = "", ...parts] = line.split(";")
    const index = pair.indexOf("=")
    const name = pair.slice(0, index).trim()
    const value = pair.slice(index + 1).trim()
    const attributes: Record<string, string> = {}
    for (const part of parts) {
      const [key = "", ...v] = part.split("=")
      attributes[key.trim().toLowerCase()] = v.join("=").trim()
    }
    const expires = attributes.expires ? new Date(attributes.expires).getTime() : undefined
    const deleted =
      value === "" ||
      attributes["max-age"] === "0" ||
      (expires !== undefined && expires <= Date.now())
    return { name, value, attributes, deleted }
  })
}

/** What one request through the handle produced. */
export interface Exchange {
  response: Response
  event: TestEvent
  resolve: ReturnType<typeof createResolve>
}

/** A browser-like client of a `handle` hook: keeps cookies between requests. */
export class Browser {
  cookies = new Map<string, string>()
  constructor(
    public handle: Handle,
    public origin = ORIGIN,
  ) {}

  /** Keeps what a response (or `event.cookies`) set, drops what it deleted. */
  store(exchange: Pick<Exchange, "response" | "event">): void {
    for (const cookie of setCookies(exchange.response)) {
      if (cookie.deleted) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    for (const write of exchange.event.cookies.writes) {
      if (isDeletion(write)) this.cookies.delete(write.name)
      else this.cookies.set(write.name, write.value)
    }
  }

  /** The event for a request carrying this browser's cookies (not yet handled). */
  event(path: string, init: EventInit = {}): TestEvent {
    return createEvent(path, { origin: this.origin, cookies: this.cookies, ...init })
  }

  /** Sends a request through the handle; `after` runs inside `resolve` (e.g. to call locals). */
  async fetch(
    path: string,
    init: EventInit = {},
    after?: (event: TestEvent) => unknown,
  ): Promise<Exchange> {
    const event = this.event(path, init)
    const resolve = vi.fn(async (resolved: RequestEvent) => {
      await after?.(resolved as TestEvent)
      return new Response("page")
    })
    const response = await this.handle({ event, resolve })
    const exchange = { response, event, resolve }
    this.store(exchange)
    return exchange
  }

  /**
   * Follows a mailed link as a user does: opens it (a page with one button: scanners open
   * links, people press buttons) and presses the page's button; returns the button's exchange
   * (or the link's own, when it opened no page).
   */
  /**
   * Opens a mailed link and presses its page's button, having typed `typed` into the form (the
   * password a confirming page asks of a browser that did not sign up).
   */
  async followLink(link: string | URL, typed: Record<string, string> = {}): Promise<Exchange> {
    const url = new URL(link, this.origin)
    const opened = await this.fetch(url.pathname + url.search)
    if (opened.response.status !== 200) return opened
    const { action, fields } = formOf(await opened.response.text())
    return this.fetch(action, { form: { ...fields, ...typed }, headers: { origin: this.origin } })
  }

  async csrfToken(authBase = "/auth"): Promise<string> {
    const { response } = await this.fetch(`${authBase}/csrf`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Signs in through `{authBase}/callback/credentials`, as the built-in form does. */
  async signIn(authBase = "/auth", username = "alice", password = "wonderland") {
    const csrfToken = await this.csrfToken(authBase)
    return this.fetch(`${authBase}/callback/credentials`, {
      form: { csrfToken, username, password },
    })
  }
}
