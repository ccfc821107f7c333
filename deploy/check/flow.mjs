// The sign-in flows over HTTP, as a browser does them: cookies kept between requests,
// redirects read one at a time. Each step returns nothing when it holds, or throws a
// `StepFailure` that says what was expected and what came back.

export class StepFailure extends Error {}

/** A browser's cookies for one site (names and values; the check needs no attributes). */
export class CookieJar {
  #cookies = new Map()
  take(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const name = pair.slice(0, pair.indexOf("=")).trim()
      const value = pair.slice(pair.indexOf("=") + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) this.#cookies.delete(name)
      else this.#cookies.set(name, value)
    }
  }
  header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
  has(prefix) {
    return [...this.#cookies.keys()].some((name) => name.includes(prefix))
  }
}

/** What a response says, for a failure message: status, where it leads, Latch's error code. */
async function describe(response) {
  const parts = [`${response.status}`]
  const location = response.headers.get("location")
  if (location) {
    parts.push(`→ ${location}`)
    const query = new URL(location, "http://x").searchParams
    if (query.get("error")) parts.push(`(error=${query.get("error")} code=${query.get("code")})`)
  } else {
    const text = (await response.text())
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim()
    if (text) parts.push(`"${text.slice(0, 240)}"`)
  }
  return parts.join(" ")
}

export function client(base) {
  const jar = new CookieJar()
  async function request(path, { method = "GET", form, headers = {} } = {}) {
    const init = { method, redirect: "manual", headers: { cookie: jar.header(), ...headers } }
    if (form) {
      init.body = new URLSearchParams(form)
      init.headers["content-type"] = "application/x-www-form-urlencoded"
      // What a browser accepts: SvelteKit answers a form action asking for JSON (as `*/*` does)
      // with JSON, for `use:enhance`, rather than with the page or its redirect.
      init.headers.accept = "text/html,application/xhtml+xml"
      // A browser's form post: SvelteKit's form actions refuse one without its own origin.
      init.headers.origin = base
    }
    const response = await fetch(`${base}${path}`, init)
    jar.take(response)
    return response
  }
  async function expect(response, check, what) {
    if (!(await check(response.clone()))) {
      throw new StepFailure(`${what}: got ${await describe(response)}`)
    }
    return response
  }
  /** Expects a redirect to `path` (its pathname, query ignored). */
  function redirectTo(response, statuses, path, what) {
    return expect(
      response,
      (r) =>
        statuses.includes(r.status) &&
        new URL(r.headers.get("location") ?? "", base).pathname === path,
      `${what}: expected ${statuses.join("/")} → ${path}`,
    )
  }
  async function csrfToken() {
    const response = await expect(
      await request("/auth/csrf"),
      async (r) => r.status === 200 && typeof (await r.json()).csrfToken === "string",
      "GET /auth/csrf: expected 200 { csrfToken }",
    )
    return (await response.json()).csrfToken
  }
  /** GET /protected shows `name`. */
  async function seesProtected(name) {
    await expect(
      await request("/protected"),
      async (r) => r.status === 200 && (await r.text()).includes(name),
      `GET /protected: expected 200 showing "${name}"`,
    )
  }
  return { jar, request, expect, redirectTo, csrfToken, seesProtected }
}
