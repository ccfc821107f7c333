/**
 * A browser as the flows need one, on nothing but Web APIs (so the same code runs in every
 * runtime): a cookie jar fed by `Set-Cookie`, requests built as forms are posted, and `Auth()`
 * called in-process.
 */
import { Auth, type AuthConfig } from "@latch/core"

export const ORIGIN = "http://localhost:3000"

/** A cookie a `Set-Cookie` line removes: emptied, `Max-Age=0`, or expired. */
function removes(attributes: string[], value: string): boolean {
  if (value === "") return true
  for (const attribute of attributes) {
    const [name = "", setting = ""] = attribute.split("=", 2).map((part) => part.trim())
    if (/^max-age$/i.test(name) && Number(setting) <= 0) return true
    if (/^expires$/i.test(name) && Date.parse(setting) <= Date.now()) return true
  }
  return false
}

export class Browser {
  cookies = new Map<string, string>()
  constructor(public config: AuthConfig) {}

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";")
      const equals = pair.indexOf("=")
      const name = pair.slice(0, equals).trim()
      const value = pair.slice(equals + 1).trim()
      if (removes(attributes, value)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  async fetch(path: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers()
    if (this.cookies.size) {
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "))
    }
    if (form) headers.set("content-type", "application/x-www-form-urlencoded")
    const request = new Request(new URL(path, ORIGIN), {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    })
    const response = await Auth(request, this.config)
    this.store(response)
    return response
  }

  /** Posts a form with the CSRF token, as the built-in pages do. */
  async post(path: string, form: Record<string, string> = {}): Promise<Response> {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string }
    return this.fetch(path, { csrfToken, ...form })
  }

  async session(): Promise<{ user?: { email?: string; name?: string }; error?: string } | null> {
    const response = await this.fetch("/auth/session")
    check(response.status === 200, `session answered ${response.status}`)
    return (await response.json()) as never
  }
}

/** A failed step: its message is what the table reports. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

/** A redirect's target, checked to be one. */
export function locationOf(response: Response): URL {
  const location = response.headers.get("location")
  check(
    response.status === 302 && location,
    `expected a redirect, got ${response.status} ${location ?? ""}`,
  )
  return new URL(location, ORIGIN)
}

/** A redirect to `path` (and no error), or a failure naming where it went instead. */
export function expectRedirect(response: Response, path: string): URL {
  const url = locationOf(response)
  check(
    url.pathname === path && !url.searchParams.has("error"),
    `expected a redirect to ${path}, got ${url.pathname}${url.search}`,
  )
  return url
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#96;": "`",
  "&#61;": "=",
}
const unescape = (value: string) =>
  value.replace(/&(?:amp|lt|gt|quot|#39|#96|#61);/g, (e) => ENTITIES[e]!)

/**
 * Opens a mailed link and presses its page's button (the Continue page: mail scanners open
 * links, people press buttons); returns the button's answer.
 */
export async function followLink(browser: Browser, link: string): Promise<Response> {
  const url = new URL(link)
  check(url.origin === ORIGIN, `the link leaves the site: ${link}`)
  const opened = await browser.fetch(url.pathname + url.search)
  check(opened.status === 200, `the link answered ${opened.status}, not its page`)
  const page = await opened.text()
  const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(page)
  check(form, "the link's page has no form")
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescape(input[1]!)] = unescape(input[2]!)
  }
  return browser.fetch(unescape(form[1]!), fields)
}
