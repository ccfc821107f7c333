/**
 * Two instances of the built demo on one PostgreSQL database, behind one origin (both run with the
 * same `ORIGIN`, as two servers behind a load balancer do), each with its session cache on, and one
 * SMTP server. What must hold across them: a session made on one reads on the other; a sign-out
 * or a "sign out everywhere else" on one holds on the other at once; the email and credentials
 * rate limits count attempts made on both together; a passkey challenge spent on one cannot be
 * spent again on the other. Part of `npm test`; `pnpm --filter latch-reliability run two` also
 * records each check's outcome for docs/reliability.md (`reliability/results/two-instances.json`).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startMailbox } from "latch-mailbox"
import { readMailbox } from "latch-mailbox/read"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { revokeSessions } from "../packages/core/src/index.js"
import { PostgresAdapter } from "../packages/pg-adapter/src/index.js"
import { SoftAuthenticator } from "../packages/core/test/helpers/authenticator.js"
// @ts-expect-error -- a script of the repository, without types
import { startPostgres } from "../scripts/postgres.mjs"
// @ts-expect-error -- the harness's own JavaScript, without types
import { ALICE, BOB, buildDemo, freePort, SECRET, setCookies, startDemo } from "./lib/demo.mjs"
// @ts-expect-error -- the harness's own JavaScript, without types
import { saveResults } from "./lib/results.mjs"

interface Demo {
  origin: string
  pid: number
  output(): string
  stop(): Promise<void>
}

const SESSION_COOKIE = "authjs.session-token"
/** How long a change on one instance may take to hold on the other: PostgreSQL's NOTIFY crosses
 * in milliseconds; this leaves room for a loaded machine, and stays far below the cache's own
 * 60 s expiry of entries, which would otherwise hide a missed notification. */
const HOLDS_WITHIN_MS = 1_000

let database: { url: string; stop(): Promise<void> }
let mailbox: { port: number; close(): Promise<void> }
let mailDir: string
let a: Demo
let b: Demo
/** The one origin both serve; requests go to each instance's own port. */
let ORIGIN: string
const instances = () => [
  { name: "A", url: a.origin },
  { name: "B", url: b.origin },
]

/** What each check found, for the report. */
const checks: { name: string; passed: boolean; detail: string }[] = []
async function check(name: string, run: () => Promise<string>) {
  try {
    const detail = await run()
    checks.push({ name, passed: true, detail })
  } catch (error) {
    checks.push({ name, passed: false, detail: String(error).slice(0, 500) })
    throw error
  }
}

beforeAll(async () => {
  buildDemo()
  database = await startPostgres({ database: "latch_two" })
  mailDir = mkdtempSync(join(tmpdir(), "latch-two-mail-"))
  mailbox = await startMailbox({ host: "127.0.0.1", port: 0, dir: mailDir })
  const [portA, portB] = [await freePort(), await freePort()]
  ORIGIN = `http://localhost:${portA}`
  const shared = {
    databaseUrl: database.url,
    smtp: `smtp://127.0.0.1:${mailbox.port}`,
    mailboxDir: mailDir,
    env: { ORIGIN },
  }
  // One at a time: the first creates the tables.
  a = await startDemo({ ...shared, port: portA })
  b = await startDemo({ ...shared, port: portB })
}, 240_000)

afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()])
  await mailbox?.close()
  await database?.stop()
  if (mailDir) rmSync(mailDir, { recursive: true, force: true })
  // Recorded for the report by `pnpm --filter latch-reliability run two`, not by the test command.
  if (!process.env.LATCH_RELIABILITY_RECORD) return
  saveResults("two-instances", {
    command: "pnpm --filter latch-reliability run two",
    setup:
      "two processes of the built demo (database sessions, session cache on) on one PostgreSQL database and one SMTP server, both serving one origin",
    checks,
    failures: checks.filter((c) => !c.passed).length,
  })
}, 60_000)

/** A browser's cookie jar and requests to either instance, all as the one origin. */
class Browser {
  cookies = new Map<string, string>()

  async fetch(instance: string, path: string, init: RequestInit & { form?: object } = {}) {
    const headers = new Headers(init.headers)
    if (this.cookies.size)
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "))
    let body = init.body
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      headers.set("origin", ORIGIN)
      // As a browser's form post: a SvelteKit form action then answers with its redirect.
      if (!headers.has("accept")) headers.set("accept", "text/html")
      body = new URLSearchParams(init.form as Record<string, string>)
    }
    const response = await fetch(`${instance}${path}`, {
      ...init,
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    })
    for (const pair of setCookies(response)) {
      const at = pair.indexOf("=")
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
      if (value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  async csrfToken(instance: string): Promise<string> {
    const response = await this.fetch(instance, "/auth/csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  async session(instance: string): Promise<{ user?: { email?: string } } | null> {
    return (await this.fetch(instance, "/auth/session")).json()
  }

  async signIn(instance: string, user: { username: string; password: string }) {
    const response = await this.fetch(instance, "/auth/callback/credentials", {
      form: { username: user.username, password: user.password },
    })
    await response.arrayBuffer()
    if (!this.cookies.has(SESSION_COOKIE))
      throw new Error(`no session after signing in at ${instance} (${response.status})`)
    return response
  }
}

/** Polls until `read` returns what `done` accepts; resolves to the milliseconds it took. */
async function within(ms: number, read: () => Promise<unknown>, done: (value: unknown) => boolean) {
  const started = performance.now()
  for (;;) {
    const value = await read()
    if (done(value)) return performance.now() - started
    if (performance.now() - started > ms)
      throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe("two instances of the demo on one database", () => {
  it("a session made on one reads on the other", async () => {
    await check("a session made on A reads on B", async () => {
      const browser = new Browser()
      await browser.signIn(a.origin, ALICE)
      const session = await browser.session(b.origin)
      expect(session?.user?.email).toBe("alice@example.com")
      return "signed in on A; B's GET /auth/session shows alice@example.com"
    })
  })

  it("a sign-out on one holds on the other", async () => {
    await check("a sign-out on A holds on B", async () => {
      const browser = new Browser()
      await browser.signIn(a.origin, BOB)
      // B has read (and cached) the session before it ends.
      expect((await browser.session(b.origin))?.user?.email).toBe("bob@example.com")
      const stolen = browser.cookies.get(SESSION_COOKIE)!
      const csrfToken = await browser.csrfToken(a.origin)
      const response = await browser.fetch(a.origin, "/auth/signout", { form: { csrfToken } })
      expect(response.status).toBe(302)
      // The old cookie, replayed to B: refused.
      const replay = new Browser()
      replay.cookies.set(SESSION_COOKIE, stolen)
      const ms = await within(
        HOLDS_WITHIN_MS,
        () => replay.session(b.origin),
        (s) => s === null,
      )
      return `B refused the signed-out session's cookie ${ms.toFixed(0)} ms after A's answer`
    })
  })

  it("signing out everywhere else on one holds on the other", async () => {
    await check("“sign out everywhere else” on B holds on A", async () => {
      const laptop = new Browser()
      const phone = new Browser()
      await laptop.signIn(a.origin, ALICE)
      await phone.signIn(b.origin, ALICE)
      expect((await laptop.session(a.origin))?.user?.email).toBe("alice@example.com")
      // The profile's form action, on B, from the phone.
      const response = await phone.fetch(b.origin, "/profile?/revokeOthers", {
        form: {},
        headers: { accept: "application/json", "x-sveltekit-action": "true" },
      })
      expect(response.status).toBe(200)
      const ms = await within(
        HOLDS_WITHIN_MS,
        () => laptop.session(a.origin),
        (s) => s === null,
      )
      expect((await phone.session(a.origin))?.user?.email).toBe("alice@example.com")
      return `A refused the laptop's session ${ms.toFixed(0)} ms after B's answer; the phone's still reads on A`
    })
  })

  it("revokeSessions from a third process holds on both", async () => {
    await check("revokeSessions from an admin process holds on A and B", async () => {
      const laptop = new Browser()
      const phone = new Browser()
      await laptop.signIn(a.origin, BOB)
      await phone.signIn(b.origin, BOB)
      const userId = ((await laptop.session(b.origin)) as { user: { id: string } }).user.id
      expect((await phone.session(a.origin))?.user?.email).toBe("bob@example.com")
      // An admin script: its own connection and configuration, on the same database.
      const pool = new pg.Pool({ connectionString: database.url, max: 1 })
      let revoked: number
      try {
        revoked = await revokeSessions(
          { adapter: PostgresAdapter(pool), secret: SECRET, providers: [] },
          userId,
        )
      } finally {
        await pool.end()
      }
      expect(revoked).toBeGreaterThanOrEqual(2)
      let slowest = 0
      for (const browser of [laptop, phone])
        for (const { url } of instances())
          slowest = Math.max(
            slowest,
            await within(
              HOLDS_WITHIN_MS,
              () => browser.session(url),
              (s) => s === null,
            ),
          )
      return `revokeSessions(config, userId) from a separate process ended ${revoked} sessions; both were refused by both instances within ${slowest.toFixed(0)} ms`
    })
  })

  it("the email rate limit counts requests made on both", async () => {
    await check("the email sign-in limit counts across A and B", async () => {
      const address = `limit-${Date.now()}@example.com`
      const browser = new Browser()
      const before = readMailbox(mailDir).length
      for (let i = 0; i < 8; i++) {
        const instance = instances()[i % 2]!.url
        const csrfToken = await browser.csrfToken(instance)
        const response = await browser.fetch(instance, "/auth/signin/nodemailer", {
          form: { csrfToken, email: address },
        })
        // Over the limit the answer is the same as under it: it reveals nothing.
        expect(response.status).toBe(302)
        expect(response.headers.get("location")).toContain("/auth/verify-request")
      }
      // The mails arrive through SMTP: give the last one a moment.
      await within(
        2_000,
        async () => readMailbox(mailDir).length - before,
        (n) => n === 5,
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      const sent = readMailbox(mailDir).filter((mail) => mail.to.includes(address)).length
      expect(sent).toBe(5)
      return "8 requests for one address, alternating A and B: 5 mails sent (the limit is 5 per address per 10 min), not 5 per instance"
    })
  })

  it("a password account made on one is confirmed, reset and used on the other", async () => {
    await check("a password account's sign-up, reset and sign-in across A and B", async () => {
      const address = `pw-${Date.now()}@example.com`
      /** The link to `path` in a mail to the address, once it arrived. */
      const linkTo = async (path: string) => {
        const links = () =>
          readMailbox(mailDir)
            .filter((mail) => mail.to.includes(address))
            .map((mail) => /https?:\/\/\S+/.exec(mail.text ?? "")?.[0] ?? "")
            .filter((link) => link.includes(path))
        await within(
          2_000,
          async () => links().length,
          (n) => n === 1,
        )
        return new URL(links()[0]!)
      }
      // Sign-up through A's form action (SvelteKit), confirmed on B by the page's button.
      const browser = new Browser()
      const signUp = await browser.fetch(a.origin, "/signup", {
        form: { email: address, password: "correct horse battery", name: "Pat" },
      })
      expect(signUp.status).toBe(303)
      const confirm = await linkTo("/auth/verify-email/")
      const page = await browser.fetch(b.origin, `${confirm.pathname}${confirm.search}`)
      expect(page.status).toBe(200)
      const token = /name="token" value="([^"]+)"/.exec(await page.text())![1]!
      await browser.fetch(b.origin, confirm.pathname, {
        form: { csrfToken: await browser.csrfToken(b.origin), token },
      })
      expect((await browser.session(a.origin))?.user?.email).toBe(address)

      // Forgot password on B, new password through A's form action; the old one then fails on B.
      const other = new Browser()
      await other.fetch(b.origin, "/reset-password", { form: { email: address } })
      const reset = await linkTo("/auth/new-password/")
      const resetToken = reset.searchParams.get("token")!
      const done = await other.fetch(
        a.origin,
        `/new-password?token=${encodeURIComponent(resetToken)}`,
        {
          form: { token: resetToken, password: "a brand new password" },
        },
      )
      expect(done.status).toBe(303)
      expect(done.headers.get("location")).not.toContain("error")
      expect((await other.session(b.origin))?.user?.email).toBe(address)
      // The reset ended the first browser's session, on both instances.
      await within(
        1_000,
        () => browser.session(b.origin),
        (session) => session === null,
      )
      const signIn = async (password: string) => {
        const fresh = new Browser()
        const csrfToken = await fresh.csrfToken(b.origin)
        await fresh.fetch(b.origin, "/auth/callback/password", {
          form: { csrfToken, email: address, password },
        })
        return (await fresh.session(b.origin))?.user?.email ?? null
      }
      expect(await signIn("correct horse battery")).toBeNull()
      expect(await signIn("a brand new password")).toBe(address)
      return "sign-up by A's form action, confirmed on B; reset asked on B, set by A's form action; the old password refused and the first session ended on both; the new one signs in on B"
    })
  })

  it("the credentials rate limit counts attempts made on both", async () => {
    await check("the credentials limit counts across A and B", async () => {
      const codes: string[] = []
      for (let i = 0; i < 8; i++) {
        const browser = new Browser()
        const instance = instances()[i % 2]!.url
        const response = await browser.fetch(instance, "/auth/callback/credentials", {
          form: { username: "bob", password: `wrong-${i}` },
        })
        codes.push(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("code")!)
      }
      expect(codes).toEqual([...Array(5).fill("credentials"), ...Array(3).fill("rate_limited")])
      // The right password from the same address is refused too while the window lasts.
      const browser = new Browser()
      const response = await browser.fetch(b.origin, "/auth/callback/credentials", {
        form: { username: "bob", password: BOB.password },
      })
      expect(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("code")).toBe(
        "rate_limited",
      )
      return "8 wrong passwords for one account from one address, alternating A and B: refused as rate_limited from the 6th (the limit is 5 per account and address)"
    })
  })

  it("a passkey challenge spent on one cannot be spent on the other", async () => {
    await check("a passkey challenge spent on A is refused on B", async () => {
      const rpId = new URL(ORIGIN).hostname
      const authenticator = new SoftAuthenticator({ counter: false })
      // Register a passkey for alice, signed in on A.
      const owner = new Browser()
      await owner.signIn(a.origin, ALICE)
      const registration = (await (
        await owner.fetch(a.origin, "/auth/webauthn-options/passkey?action=register")
      ).json()) as { options: { challenge: string; user: { id: string } } }
      const { credential, response: attestation } = authenticator.create(
        { challenge: registration.options.challenge, origin: ORIGIN, rpId },
        registration.options.user.id,
      )
      const registered = await owner.fetch(a.origin, "/auth/callback/passkey", {
        form: {
          csrfToken: await owner.csrfToken(a.origin),
          action: "register",
          data: JSON.stringify(attestation),
        },
      })
      expect(registered.headers.get("location")).not.toContain("error=")

      // Sign in with it: the options from B, the answer spent on A.
      const user = new Browser()
      const options = (await (
        await user.fetch(b.origin, "/auth/webauthn-options/passkey?action=authenticate")
      ).json()) as { options: { challenge: string } }
      const assertion = authenticator.get(credential, {
        challenge: options.options.challenge,
        origin: ORIGIN,
        rpId,
      })
      const form = {
        csrfToken: await user.csrfToken(a.origin),
        action: "authenticate",
        data: JSON.stringify(assertion),
      }
      const attacker = new Browser()
      attacker.cookies = new Map(user.cookies)
      const spent = await user.fetch(a.origin, "/auth/callback/passkey", { form })
      expect(spent.headers.get("location")).not.toContain("error=")
      expect((await user.session(b.origin))?.user?.email).toBe("alice@example.com")

      // The same answer and cookies, replayed to B.
      const replay = await attacker.fetch(b.origin, "/auth/callback/passkey", { form })
      const location = new URL(replay.headers.get("location")!, ORIGIN)
      expect(location.searchParams.get("error")).toBe("WebAuthnVerificationError")
      expect(location.searchParams.get("code")).toBe("replay")
      expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false)
      return "options from B, answered on A (signed in); the same answer and cookies replayed to B: refused with WebAuthnVerificationError, code replay, no session"
    })
  })
})
