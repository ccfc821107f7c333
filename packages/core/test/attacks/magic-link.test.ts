/**
 * Attack: a stranger's magic link opened in a signed-in browser.
 *
 * A sign-in link proves that someone controls an address, not that the browser opening it asked
 * for it; a top-level navigation carries the SameSite=Lax session cookie, and the "Continue
 * signing in" page the link opens gets its CSRF token in the victim's own browser, so its button
 * works there. Were a link allowed to attach its address to the signed-in user, Mallory would
 * request a link for her own `mallory@evil.test`, get the signed-in victim to open it (a redirect
 * from any page she controls) and press the button, and later sign in with a fresh link for her
 * address — into the victim's account.
 *
 * Safe outcome, with either session strategy: the link is refused with `AccountNotLinked` before
 * its token is spent; the victim stays signed in as themselves; no user is created and no
 * account linked; the same link still works once the browser has signed out; and Mallory's
 * later sign-in lands in an account of her own.
 *
 * Yet a user's own link — asked for in this browser, as when switching accounts — replaces the
 * other user's session, as in Auth.js: asking for a link leaves a sealed cookie naming the
 * address (a CSRF-checked POST, which Mallory cannot make the victim's browser send), and only a
 * link for that address switches. The switch issues a new session token (no fixation) and, with
 * database sessions, deletes the old session.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { Browser, ORIGIN, storedTokenOf, testConfig } from "../helpers/request.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

let sequence = 0
/** Fresh addresses per test: no test sees another's mail. */
const addresses = () => {
  const run = `${++sequence}-${Date.now()}`
  return { victim: `victim${run}@example.com`, mallory: `mallory${run}@evil.test` }
}

const SESSION_COOKIE = "authjs.session-token"
const REQUEST_COOKIE = "latch.email-request"

function setup(strategy: "database" | "jwt"): { adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = memoryAdapter()
  const config = testConfig({
    adapter,
    session: { strategy },
    providers: [
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
    ],
  })
  return { adapter, config }
}

/** Asks for a link in `browser` and returns it, as read from the mail that arrives. */
async function requestLink(browser: Browser, address: string): Promise<string> {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/signin/nodemailer", {
    form: { csrfToken, email: address, callbackUrl: "/dashboard" },
  })
  expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
  return linkIn(await mailbox.nextFor(address))
}

function linkIn(mail: ReceivedMail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
  return `${url.pathname}${url.search}`
}

/** The victim's browser, signed in with a link for their own address. */
async function signedInVictim(config: AuthConfig, address: string): Promise<Browser> {
  const browser = new Browser(config)
  await followLink(browser, await requestLink(browser, address))
  expect((await browser.session())?.user?.email).toBe(address)
  return browser
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("a stranger's link opened while signed in is refused, and attaches nothing", async () => {
    const { adapter, config } = setup(strategy)
    const { victim, mallory } = addresses()
    const browser = await signedInVictim(config, victim)
    const victimId = [...adapter.users.values()].find((user) => user.email === victim)!.id
    const sessionBefore = browser.cookies.get(SESSION_COOKIE)
    const usersBefore = adapter.users.size
    const accountsBefore = [...adapter.accounts.values()]

    // Mallory asks for a link to her own address, in her own browser…
    const attacker = new Browser(config)
    const link = await requestLink(attacker, mallory)
    // …and the victim's browser is navigated to it.
    const response = await followLink(browser, link)

    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("AccountNotLinked")
    // The victim is still signed in as themselves, with the same session.
    expect(browser.cookies.get(SESSION_COOKIE)).toBe(sessionBefore)
    expect((await browser.session())?.user?.email).toBe(victim)
    // Nothing was created or linked; the token was not spent.
    expect(adapter.users.size).toBe(usersBefore)
    expect([...adapter.accounts.values()]).toEqual(accountsBefore)
    expect(await adapter.getUserByEmail!(mallory)).toBeNull()
    expect([...adapter.tokens.values()].map((token) => token.identifier)).toEqual([mallory])

    // Later, Mallory signs in with a fresh link: she lands in an account of her own.
    await followLink(attacker, await requestLink(attacker, mallory))
    const session = await attacker.session()
    expect(session?.user?.email).toBe(mallory)
    const mallorys = await adapter.getUserByAccount!({
      provider: "nodemailer",
      providerAccountId: mallory,
    })
    expect(mallorys?.id).toBeDefined()
    expect(mallorys!.id).not.toBe(victimId)
    const victimAccounts = [...adapter.accounts.values()].filter((a) => a.userId === victimId)
    expect(victimAccounts.map((account) => account.providerAccountId)).toEqual([victim])
  })

  it("the refused link still works once the browser has signed out", async () => {
    const { config } = setup(strategy)
    const { victim, mallory } = addresses()
    const browser = await signedInVictim(config, victim)
    const link = await requestLink(new Browser(config), mallory)
    const refused = await followLink(browser, link)
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe(
      "AccountNotLinked",
    )

    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    expect(await browser.session()).toBeNull()
    const response = await followLink(browser, link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.email).toBe(mallory)
  })

  it("a link for another user's address is refused the same way, before its token is spent", async () => {
    const { adapter, config } = setup(strategy)
    const { victim, mallory } = addresses()
    // Mallory has an account; the victim is signed in and opens a link she got for it.
    await signedInVictim(config, mallory)
    const browser = await signedInVictim(config, victim)
    const link = await requestLink(new Browser(config), mallory)
    const accountsBefore = adapter.accounts.size

    const response = await followLink(browser, link)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "AccountNotLinked",
    )
    expect((await browser.session())?.user?.email).toBe(victim)
    expect(adapter.accounts.size).toBe(accountsBefore)
    expect(adapter.tokens.size).toBe(1)
  })

  it("a link for the signed-in user's own address signs them in as before", async () => {
    const { adapter, config } = setup(strategy)
    const { victim } = addresses()
    const browser = await signedInVictim(config, victim)
    const response = await followLink(browser, await requestLink(browser, victim))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.email).toBe(victim)
    expect(adapter.users.size).toBe(1)
    expect(adapter.tokens.size).toBe(0)
  })

  it("your own link, asked for in this browser while signed in as another user, switches to you", async () => {
    const { adapter, config } = setup(strategy)
    const { victim: other, mallory: mine } = addresses()
    const browser = await signedInVictim(config, other)
    const otherId = [...adapter.users.values()].find((user) => user.email === other)!.id
    const oldToken = browser.cookies.get(SESSION_COOKIE)!
    const sessionsBefore = [...adapter.sessions.keys()]

    const link = await requestLink(browser, mine)
    const response = await followLink(browser, link)

    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const newToken = browser.cookies.get(SESSION_COOKIE)
    expect(newToken).toBeDefined()
    expect(newToken).not.toBe(oldToken)
    expect((await browser.session())?.user?.email).toBe(mine)
    // A new address is a new user (as in Auth.js); the other user keeps only their own account.
    const me = (await adapter.getUserByEmail!(mine))!
    expect(me.id).not.toBe(otherId)
    expect(
      [...adapter.accounts.values()].map((account) => [account.userId, account.providerAccountId]),
    ).toEqual([
      [otherId, other],
      [me.id, mine],
    ])
    if (strategy === "database") {
      expect(sessionsBefore).toEqual([storedTokenOf(oldToken!)])
      expect(adapter.sessions.has(storedTokenOf(oldToken!))).toBe(false)
      expect([...adapter.sessions.values()].map((session) => session.userId)).toEqual([me.id])
    } else {
      expect(adapter.sessions.size).toBe(0)
    }
    // The request is forgotten once its link is used.
    expect(browser.cookies.has(REQUEST_COOKIE)).toBe(false)
  })

  it("an existing user's own link switches to that user, creating no one", async () => {
    const { adapter, config } = setup(strategy)
    const { victim: other, mallory: mine } = addresses()
    await signedInVictim(config, mine)
    const myId = (await adapter.getUserByEmail!(mine))!.id
    const browser = await signedInVictim(config, other)
    const oldToken = browser.cookies.get(SESSION_COOKIE)!
    const users = adapter.users.size

    await followLink(browser, await requestLink(browser, mine))
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(oldToken)
    expect((await browser.session())?.user?.email).toBe(mine)
    expect(adapter.users.size).toBe(users)
    if (strategy === "database") {
      expect(adapter.sessions.has(storedTokenOf(oldToken))).toBe(false)
      expect(
        adapter.sessions.get(storedTokenOf(browser.cookies.get(SESSION_COOKIE)!))?.userId,
      ).toBe(myId)
    }
  })

  it("asking for your own link does not let a stranger's link through", async () => {
    const { adapter, config } = setup(strategy)
    const { victim, mallory } = addresses()
    const browser = await signedInVictim(config, victim)
    const sessionBefore = browser.cookies.get(SESSION_COOKIE)
    // The victim asks for a link to another address of theirs (not yet opened)…
    await requestLink(browser, `second.${victim}`)
    expect(browser.cookies.has(REQUEST_COOKIE)).toBe(true)
    // …and is sent to Mallory's link meanwhile.
    const response = await followLink(browser, await requestLink(new Browser(config), mallory))
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "AccountNotLinked",
    )
    expect(browser.cookies.get(SESSION_COOKIE)).toBe(sessionBefore)
    expect((await browser.session())?.user?.email).toBe(victim)
    expect(await adapter.getUserByEmail!(mallory)).toBeNull()
  })

  it("a request cookie sealed by another deployment does not count", async () => {
    const { config } = setup(strategy)
    const { victim, mallory } = addresses()
    const browser = await signedInVictim(config, victim)
    // Mallory asks for her link and copies her request cookie into the victim's browser (a
    // sibling subdomain could set cookies): it names her address, but it is sealed under the
    // secret, and a cookie of another deployment does not open.
    const foreign = new Browser({ ...config, secret: `${config.secret as string}-other` })
    const link = await requestLink(foreign, mallory)
    browser.cookies.set(REQUEST_COOKIE, foreign.cookies.get(REQUEST_COOKIE)!)
    const response = await followLink(browser, link)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "AccountNotLinked",
    )
    expect((await browser.session())?.user?.email).toBe(victim)
  })
})

it("the request cookie is HttpOnly, Lax, sealed, and lives as long as the link", async () => {
  const { config } = setup("jwt")
  const { victim } = addresses()
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch("/auth/signin/nodemailer", {
    form: { csrfToken, email: victim, callbackUrl: "/dashboard" },
  })
  await mailbox.nextFor(victim)
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${REQUEST_COOKIE}=`))!
  expect(line).toMatch(/; HttpOnly/i)
  expect(line).toMatch(/; SameSite=Lax/i)
  const maxAge = Number(/; Max-Age=(\d+)/.exec(line)?.[1])
  expect(maxAge).toBeGreaterThanOrEqual(24 * 60 * 60 - 5)
  expect(maxAge).toBeLessThanOrEqual(24 * 60 * 60)
  expect(decodeURIComponent(line)).not.toContain(victim)
})
