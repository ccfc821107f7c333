/**
 * A browser for `Auth()`: real `Request`s, and a cookie jar kept from the responses. The same
 * browser talks to the old release's `Auth` and then to this checkout's (`server`), as a user's
 * browser does across an app's upgrade: its cookies are what it keeps.
 */
import { parseSetCookie } from "cookie"

export const ORIGIN = "http://localhost:3000"

/** `Auth(request, config)` of either version. */
export type AuthFunction = (request: Request, config: any) => Promise<Response>

export interface Server {
  auth: AuthFunction
  config: Record<string, unknown>
}

export class Browser {
  cookies = new Map<string, string>()

  constructor(public server: Server) {}

  /** The same cookies, talking to another server (the upgraded app). */
  copyTo(server: Server): Browser {
    const copy = new Browser(server)
    copy.cookies = new Map(this.cookies)
    return copy
  }

  /** The `Cookie` header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  /** A request of this browser to a page of the app (for the functions that read a session). */
  request(path: string): Request {
    return new Request(new URL(path, ORIGIN), { headers: { cookie: this.cookieHeader() } })
  }

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header)
      const gone =
        cookie.value === "" ||
        cookie.maxAge === 0 ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now())
      if (gone) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value ?? "")
    }
  }

  async fetch(
    path: string,
    init: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size) headers.set("cookie", this.cookieHeader())
    let body: string | undefined
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(init.form).toString()
    }
    const request = new Request(new URL(path, ORIGIN), {
      method: body === undefined ? "GET" : "POST",
      headers,
      body,
    })
    const response = await this.server.auth(request, this.server.config)
    this.store(response)
    return response
  }

  /** A CSRF-checked form post; the answer and where it redirects. */
  async post(path: string, form: Record<string, string> = {}, headers?: Record<string, string>) {
    const csrf = await this.fetch("/auth/csrf")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await this.fetch(path, { form: { csrfToken, ...form }, headers })
    const location = response.headers.get("location")
    return { response, location: location === null ? null : new URL(location) }
  }

  /** `GET /auth/session`: the session as the app sees it, or `null`. */
  async session(): Promise<Record<string, any> | null> {
    const response = await this.fetch("/auth/session")
    if (response.status !== 200) throw new Error(`GET /auth/session: ${response.status}`)
    return (await response.json()) as Record<string, any> | null
  }
}
