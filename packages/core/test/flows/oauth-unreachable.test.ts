/**
 * A provider that is down, or that accepts connections and never answers: the sign-in ends on
 * a page quickly (the provider's `timeout`), never on a hung request or a session.
 */
import { createServer, type Server, type Socket } from "node:net"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import type { OAuthConfig, OIDCConfig } from "../../src/providers/index.js"
import { Browser, ORIGIN, testConfig, writtenCookies } from "../helpers/request.js"

const SESSION = "authjs.session-token"

/** A TCP server on 127.0.0.1 that accepts connections, reads, and never answers. */
async function silentServer() {
  const sockets = new Set<Socket>()
  /** The request line of every request received. */
  const requests: string[] = []
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on("data", (data) => requests.push(String(data).split("\r\n")[0]!))
    socket.on("error", () => {})
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

function browserWith(provider: OAuthConfig | OIDCConfig) {
  const error = vi.fn<(error: Error) => void>()
  const browser = new Browser(
    testConfig({ providers: [provider], logger: { error, warn: () => {}, debug: () => {} } }),
  )
  return { browser, error }
}

async function signIn(browser: Browser, id: string): Promise<Response> {
  const csrfToken = await browser.csrfToken()
  return browser.fetch(`/auth/signin/${id}`, { form: { csrfToken, callbackUrl: "/dashboard" } })
}

let silent: Awaited<ReturnType<typeof silentServer>>

beforeAll(async () => {
  silent = await silentServer()
})
afterAll(() => silent?.stop())

describe("a provider that cannot be reached", () => {
  it("answers the sign-in with the sign-in page and OAuthSignin when discovery is refused", async () => {
    const issuer = `http://127.0.0.1:${await closedPort()}`
    const { browser } = browserWith({
      id: "down",
      name: "Down",
      type: "oidc",
      issuer,
      clientId: "id",
      clientSecret: "secret",
    })
    const response = await signIn(browser, "down")
    expect(response.status).toBe(302)
    const url = new URL(response.headers.get("location")!)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(url.searchParams.get("error")).toBe("OAuthSignin")
    // Nothing was started: no check cookies, no session.
    expect(writtenCookies(response).filter((name) => name !== "authjs.callback-url")).toEqual([])
  })

  it("gives up on a discovery that never answers after the provider's timeout", async () => {
    const { browser } = browserWith({
      id: "mute",
      name: "Mute",
      type: "oidc",
      issuer: silent.url,
      clientId: "id",
      clientSecret: "secret",
      timeout: 1,
    })
    const started = Date.now()
    const response = await signIn(browser, "mute")
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(900)
    expect(elapsed).toBeLessThan(5000)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("OAuthSignin")
  })

  it("ends the callback on the error page when the token endpoint never answers", async () => {
    const before = silent.requests.length
    const { browser, error } = browserWith({
      id: "slow",
      name: "Slow",
      type: "oauth",
      clientId: "id",
      clientSecret: "secret",
      authorization: `${silent.url}/authorize`,
      token: `${silent.url}/token`,
      userinfo: `${silent.url}/userinfo`,
      timeout: 1,
    })
    const start = await signIn(browser, "slow")
    expect(start.status).toBe(302)
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!
    // Starting the sign-in does not call the provider when its endpoints are explicit.
    expect(silent.requests.slice(before)).toEqual([])

    const started = Date.now()
    const response = await browser.fetch(
      `/auth/callback/slow?code=a-code&state=${encodeURIComponent(state)}`,
    )
    const elapsed = Date.now() - started
    expect(silent.requests.slice(before)).toEqual(["POST /token HTTP/1.1"])
    expect(elapsed).toBeGreaterThanOrEqual(900)
    expect(elapsed).toBeLessThan(5000)

    expect(response.status).toBe(302)
    const url = new URL(response.headers.get("location")!)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/error`)
    expect(url.searchParams.get("error")).toBe("Configuration")
    expect(writtenCookies(response).some((name) => name.startsWith(SESSION))).toBe(false)
    expect(await browser.session()).toBeNull()
    expect(error).toHaveBeenCalledTimes(1)
  })
})
