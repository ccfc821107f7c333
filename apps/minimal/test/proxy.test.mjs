// The minimal app over HTTP: the origin of every URL Latch emits comes from the deployment's
// settings (ORIGIN, or the headers the deployer says its proxy sets), never from a forwarding
// header nobody named; the client address likewise.
import { createServer, request as httpRequest } from "node:http"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { clientAddressOf, settingsFrom } from "../request.mjs"
import { createHandler } from "../server.mjs"

/** Latch's warnings to the app's log, kept from the output and checked at the end. */
let warn
beforeAll(() => {
  process.env.AUTH_SECRET ??= "minimal-example-test-secret-0123456789abcdef"
  warn = vi.spyOn(console, "warn").mockImplementation(() => {})
})
afterAll(() => {
  // The one warning of this app: without a database it counts sign-in attempts in its process's
  // memory: right for one process, and said once (the warning names what to use for more).
  const codes = warn.mock.calls.map(
    ([message]) => /^\[latch\]\[warn\] ([\w-]+):/.exec(message)?.[1],
  )
  warn.mockRestore()
  expect(codes).toEqual(["memory-counter"])
})

let server
afterEach(() => new Promise((resolve) => (server ? server.close(resolve) : resolve())))

/** Starts the app with `env` as its settings; resolves to its port. */
function start(env = {}) {
  server = createServer(createHandler(settingsFrom(env)))
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(server.address().port)),
  )
}

/** A raw HTTP request, so the test chooses every header (Host included). */
function send(port, path, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }))
    })
    req.on("error", reject)
    req.end(body)
  })
}

const FORGED = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }

/** The origin of the sign-in URL the providers action names. */
async function signinOrigin(port, headers) {
  const { status, text } = await send(port, "/auth/providers", { headers })
  expect(status).toBe(200)
  return new URL(JSON.parse(text).credentials.signinUrl).origin
}

describe("the origin of the minimal app", () => {
  it("never follows X-Forwarded-Host when the deployer named no header", async () => {
    const port = await start()
    const origin = await signinOrigin(port, { host: `localhost:${port}`, ...FORGED })
    expect(origin).toBe(`http://localhost:${port}`)
  })

  it("is ORIGIN when set, whatever Host and X-Forwarded-Host say", async () => {
    const port = await start({ ORIGIN: "https://app.example.com" })
    expect(await signinOrigin(port, { host: "evil.example", ...FORGED })).toBe(
      "https://app.example.com",
    )
  })

  it("follows the headers the deployer says its proxy sets", async () => {
    const port = await start({
      HOST_HEADER: "X-Forwarded-Host",
      PROTOCOL_HEADER: "x-forwarded-proto",
    })
    const headers = {
      host: "internal:8080",
      "x-forwarded-host": "app.example.com",
      "x-forwarded-proto": "https",
    }
    expect(await signinOrigin(port, headers)).toBe("https://app.example.com")
  })

  it.each([
    ["a host with a path", { "x-forwarded-host": "evil.example/path" }],
    ["a host with userinfo", { "x-forwarded-host": "user@evil.example" }],
    ["a protocol that is not http(s)", { "x-forwarded-proto": "javascript" }],
  ])("answers 400 to %s in a named header", async (_case, headers) => {
    const port = await start({
      HOST_HEADER: "x-forwarded-host",
      PROTOCOL_HEADER: "x-forwarded-proto",
    })
    const response = await send(port, "/auth/providers", { headers })
    expect(response.status).toBe(400)
  })

  it("signs alice in and shows her on the home page", async () => {
    const port = await start()
    const csrf = await send(port, "/auth/csrf")
    const { csrfToken } = JSON.parse(csrf.text)
    const csrfCookie = csrf.headers["set-cookie"].map((line) => line.split(";")[0]).join("; ")
    const signIn = await send(port, "/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({
        csrfToken,
        username: "alice",
        password: "wonderland",
      }).toString(),
    })
    expect(signIn.status).toBe(302)
    const session = signIn.headers["set-cookie"].find((line) =>
      line.startsWith("authjs.session-token="),
    )
    expect(session).toBeDefined()
    const home = await send(port, "/", { headers: { cookie: session.split(";")[0] } })
    expect(home.text).toContain("Signed in as <strong>Alice Liddell</strong>")
  })
})

describe("the client address of the minimal app", () => {
  const req = (headers) => ({ headers, socket: { remoteAddress: "10.0.0.2" } })

  it("is the socket's when the deployer named no header", () => {
    const settings = settingsFrom({})
    expect(clientAddressOf(req({ "x-forwarded-for": "192.0.2.1" }), settings)).toBe("10.0.0.2")
  })

  it("is the entry XFF_DEPTH from the right of X-Forwarded-For, never a client-written one", () => {
    const forwarded = { "x-forwarded-for": "192.0.2.1, 198.51.100.7, 10.0.0.1" }
    expect(
      clientAddressOf(req(forwarded), settingsFrom({ ADDRESS_HEADER: "x-forwarded-for" })),
    ).toBe("10.0.0.1")
    const twoProxies = settingsFrom({ ADDRESS_HEADER: "X-Forwarded-For", XFF_DEPTH: "2" })
    expect(clientAddressOf(req(forwarded), twoProxies)).toBe("198.51.100.7")
  })
})
