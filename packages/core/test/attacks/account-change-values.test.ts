/**
 * Attack: the client's words in the account-change actions. Every value the re-authentication
 * step, the notices and the passkey options take from a request — `callbackUrl`, `method`,
 * the `User-Agent` header, a stray `email` field — is the client's; none may send the user off
 * the site, put words of its choosing into the owner's mail, choose where a code is mailed, or
 * write a line of its own into the server's log.
 */
import { describe, expect, it, vi } from "vitest"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  owner,
  PASSWORD,
  post,
  reauthenticate,
  signIn,
} from "../helpers/account-security.js"
import { Browser, ORIGIN } from "../helpers/request.js"

const EVIL = "https://evil.example/phish"
const later = () => vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })

describe("the client's values in account changes", () => {
  async function signedIn(extra: Parameters<typeof app>[0]["extra"] = {}) {
    const context = app({ strategy: "database", extra })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    return { ...context, browser }
  }

  it("a confirmed step never leaves the site, whatever callbackUrl says", async () => {
    const { browser } = await signedIn()
    for (const callbackUrl of [EVIL, "//evil.example", "javascript:alert(1)"]) {
      const confirmed = await reauthenticate(
        browser,
        { method: "password", password: PASSWORD },
        callbackUrl,
      )
      expect(confirmed.location!.origin).toBe(ORIGIN)
    }
    vi.useRealTimers()
  })

  it("the passkey options' step URL comes back to the site only", async () => {
    const { browser } = await signedIn()
    later()
    const response = await browser.fetch(
      `/auth/webauthn-options/passkey?action=register&callbackUrl=${encodeURIComponent(EVIL)}`,
    )
    expect(response.status).toBe(403)
    const { url } = (await response.json()) as { url: string }
    const step = new URL(url)
    expect(step.origin).toBe(ORIGIN)
    expect(step.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/`)
    vi.useRealTimers()
  })

  it("the two-factor setup's way back through the step stays on the site", async () => {
    const { browser } = await signedIn()
    later()
    const stale = await browser.fetch(
      `/auth/two-factor/setup?callbackUrl=${encodeURIComponent(EVIL)}`,
    )
    const back = new URL(new URL(stale.headers.get("location")!).searchParams.get("callbackUrl")!)
    expect(back.origin).toBe(ORIGIN)
    await reauthenticate(browser, { method: "password", password: PASSWORD }, back.href)
    const page = await (await browser.fetch(`${back.pathname}${back.search}`)).text()
    expect(page).toContain(`name="callbackUrl" value="${ORIGIN}/"`)
    expect(page).not.toContain("evil.example")
    vi.useRealTimers()
  })

  it("a hostile User-Agent puts nothing of its own into the owner's notice", async () => {
    const { browser, mails } = await signedIn()
    // (A header cannot carry a line break: HTTP refuses it before Latch sees it.)
    const hostile = "Evil <b>bold</b> Bcc: thief@evil.example visit https://evil.example"
    const original = browser.fetch.bind(browser)
    browser.fetch = (path, init = {}) =>
      original(path, { ...init, headers: { ...init.headers, "user-agent": hostile } })
    await addPasskey(browser, new SoftAuthenticator())
    const notice = mails.find((mail) => mail.subject.startsWith("A passkey was added"))!
    expect(notice.to).toBe("ada@example.com")
    for (const part of [notice.text, notice.html, notice.subject]) {
      expect(part).not.toContain("evil.example")
      expect(part).not.toContain("Bcc")
      expect(part).not.toContain("<b>")
    }
  })

  it("a mailed code goes to the account's address, not to one the form names", async () => {
    const { browser, mails } = await signedIn()
    await reauthenticate(browser, { method: "email", send: "1", email: "thief@evil.example" })
    expect(mails.map((mail) => mail.to)).toEqual(["ada@example.com"])
  })

  it("the posted method is never written into the log", async () => {
    const debug = vi.fn()
    const { browser } = await signedIn({
      debug: true,
      logger: { error: vi.fn(), warn: () => {}, debug },
    })
    const forged = "x\n[latch][error] AdapterError: forged"
    const refused = await reauthenticate(browser, { method: forged })
    expect(refused.location!.searchParams.get("code")).toBe("no_method")
    const logged = debug.mock.calls.map((call) => String(call[0])).join("\n")
    expect(logged).toContain("ReauthenticationRequired")
    expect(logged).not.toContain("forged")
  })

  it("a refused passkey at the step logs no words of the client's", async () => {
    const debug = vi.fn()
    const { browser } = await signedIn({
      debug: true,
      logger: { error: vi.fn(), warn: () => {}, debug },
    })
    await addPasskey(browser, new SoftAuthenticator())
    debug.mockClear()
    await browser.fetch("/auth/webauthn-options/passkey?action=authenticate")
    const refused = await post(browser, "/auth/reauthenticate", {
      method: "passkey",
      action: "register\n[latch][error] forged",
      data: "{}",
    })
    expect(refused.location!.searchParams.get("code")).toBe("passkey_failed")
    const logged = debug.mock.calls.map((call) => String(call[0])).join("\n")
    expect(logged).toContain("passkey")
    expect(logged).not.toContain("forged")
  })
})
