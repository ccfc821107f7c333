/**
 * Email sign-in through `Auth` with the PostgreSQL adapter as the store, on PGlite and on a
 * PostgreSQL server, mails delivered to a real SMTP sink: tokens stored hashed and used once,
 * and rate limits that hold across two app instances sharing the database.
 */
import { startMailbox, type Mailbox, type ReceivedMail } from "latch-mailbox"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Nodemailer from "../../core/src/providers/nodemailer.js"
import type { EmailUserConfig } from "../../core/src/providers/email.js"
import { followLink } from "../../core/test/helpers/continue-page.js"
import { Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { PostgresAdapter } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

let mailbox: Mailbox
beforeAll(async () => {
  mailbox = await startMailbox()
})
afterAll(() => mailbox.close())

let sequence = 0
const newAddress = () => `pg-${++sequence}-${Date.now()}@example.com`

function linkIn(mail: ReceivedMail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
  return `${url.pathname}${url.search}`
}

describe.each(clients)("email sign-in on $name", ({ open }) => {
  const db = useEmptyDatabase(open)

  /** One app instance: its own adapter object and configuration, on the shared database. */
  function instance(email: EmailUserConfig = {}) {
    const config = testConfig({
      adapter: PostgresAdapter(db().client),
      providers: [
        Nodemailer({
          server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
          from: "Example <no-reply@example.com>",
          ...email,
        }),
      ],
    })
    return new Browser(config)
  }

  async function requestLink(browser: Browser, email: string) {
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/signin/nodemailer", {
      form: { csrfToken, email, callbackUrl: "/" },
    })
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
  }

  it("signs in once with the link; the database holds only the token's hash", async () => {
    const browser = instance()
    const address = newAddress()
    await requestLink(browser, address)
    const link = linkIn(await mailbox.nextFor(address))
    const token = new URL(link, ORIGIN).searchParams.get("token")!

    const { rows: stored } = await db().client.query(
      "select identifier, token from verification_tokens",
    )
    expect(stored).toEqual([
      { identifier: address, token: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ])
    expect(JSON.stringify(stored)).not.toContain(token)

    // A mail scanner's GET opens the "Continue signing in" page and leaves the token stored.
    expect((await instance().fetch(link)).status).toBe(200)
    const { rows: kept } = await db().client.query(
      "select identifier, token from verification_tokens",
    )
    expect(kept).toEqual(stored)

    const response = await followLink(browser, link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
    expect((await browser.session())?.user?.email).toBe(address)
    const { rows: users } = await db().client.query("select email, email_verified from users")
    expect(users).toEqual([{ email: address, email_verified: expect.any(Date) }])
    const { rows: accounts } = await db().client.query(
      "select type, provider, provider_account_id from accounts",
    )
    expect(accounts).toEqual([
      { type: "email", provider: "nodemailer", provider_account_id: address },
    ])
    const { rows: left } = await db().client.query(
      "select count(*)::int as n from verification_tokens",
    )
    expect(left).toEqual([{ n: 0 }])

    const again = await followLink(instance(), link)
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  it("counts the rate limit across instances, in the counters table", async () => {
    const first = instance({ rateLimit: { perAddress: 2 } })
    const second = instance({ rateLimit: { perAddress: 2 } })
    const address = newAddress()
    await requestLink(first, address)
    await requestLink(second, address)
    await requestLink(first, address)
    await requestLink(second, address)
    await mailbox.nextFor(address)
    await mailbox.nextFor(address)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mailbox.to(address)).toHaveLength(2)
    const { rows } = await db().client.query("select key, count from counters")
    expect(rows).toEqual([
      { key: expect.stringMatching(/^email:address:nodemailer:[0-9a-f]{64}$/), count: 4 },
    ])
    expect(JSON.stringify(rows)).not.toContain(address)
  })
})
