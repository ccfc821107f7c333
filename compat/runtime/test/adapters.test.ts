/**
 * Auth.js's own adapters, unchanged, under Latch's flows: @auth/pg-adapter (SERIAL ids) and
 * @auth/drizzle-adapter (text ids), each on PGlite with its documented schema.
 */
import { createHash } from "node:crypto"
import { listSessions, revokeSessions } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import Nodemailer from "@latch/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { followLink } from "../../../packages/core/test/helpers/continue-page.js"
import { Browser, ORIGIN, SECRET } from "../../../packages/core/test/helpers/request.js"
import { drizzleDatabase, pgDatabase, type Database } from "./databases.js"

describe.each([
  { name: "@auth/pg-adapter", open: pgDatabase },
  { name: "@auth/drizzle-adapter", open: drizzleDatabase },
])("$name under Latch", ({ open }) => {
  let database: Database
  beforeAll(async () => {
    database = await open()
  })
  afterAll(async () => {
    await database?.close()
  })
  beforeEach(async () => {
    await database.empty()
  })

  function setup() {
    const mails: string[] = []
    const warn = vi.fn()
    const signOut = vi.fn()
    const users: Record<string, string> = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: database.adapter,
      session: { strategy: "database" },
      providers: [
        Nodemailer({
          server: "smtp://127.0.0.1:1",
          from: "app@example.com",
          sendVerificationRequest: ({ url }) => {
            mails.push(url)
          },
        }),
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: async ({ username }) => {
            const id = users[String(username)]
            return id ? await database.adapter.getUser!(id) : null
          },
        }),
      ],
      callbacks: {
        session: ({ session, user, trigger, newSession }) => ({
          ...session,
          user: { ...session.user, id: user.id },
          ...(trigger === "update" ? { theme: (newSession as { theme: string }).theme } : {}),
        }),
      },
      events: { signOut },
      logger: { error: () => {}, warn, debug: () => {} },
    }
    return { config, mails, warn, signOut, users, browser: new Browser(config) }
  }

  it("signs in by email: a user, a session, its update and sign-out", async () => {
    const { browser, mails, signOut } = setup()
    const csrfToken = await browser.csrfToken()
    const started = await browser.fetch("/auth/signin/nodemailer", {
      form: { csrfToken, email: "ada@example.com", callbackUrl: "/home" },
    })
    expect(started.headers.get("location")).toMatch(/\/auth\/verify-request/)
    expect(mails).toHaveLength(1)
    // No incrementCounter in Auth.js's adapters: the rate limit counts in memory, the documented
    // fallback (its `memory-counter` warning is logged once per process).

    // The link opens a "Continue signing in" page; its button signs in.
    const landed = await followLink(browser, mails[0]!)
    expect(landed.headers.get("location")).toBe(`${ORIGIN}/home`)
    const user = await database.adapter.getUserByEmail!("ada@example.com")
    expect(user).toMatchObject({ email: "ada@example.com", emailVerified: expect.any(Date) })
    const session = await browser.session()
    expect(session).toMatchObject({
      user: { email: "ada@example.com", id: user!.id },
      expires: expect.any(String),
    })

    const updated = await browser.fetch("/auth/session", {
      method: "POST",
      json: { csrfToken: await browser.csrfToken(), data: { theme: "dark" } },
    })
    expect(await updated.json()).toMatchObject({ user: { id: user!.id }, theme: "dark" })

    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(await browser.session()).toBeNull()
  })

  it("signs in with credentials into a database session, and signs out", async () => {
    const { browser, users } = setup()
    const stored = await database.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "grace@example.com",
      emailVerified: null,
      name: "Grace",
    })
    users.grace = String(stored.id)
    const response = await browser.signIn("grace", "any")
    expect(response.status).toBe(302)
    expect(await browser.session()).toMatchObject({
      user: { name: "Grace", email: "grace@example.com", id: stored.id },
    })
    // The adapter stores the token's SHA-256 (`session.hashTokens`, the default), not the token.
    const token = browser.cookies.get("authjs.session-token")!
    const storedToken = createHash("sha256").update(token).digest("hex")
    expect(await database.adapter.getSessionAndUser!(token)).toBeNull()
    expect(await database.adapter.getSessionAndUser!(storedToken)).toMatchObject({
      user: { email: "grace@example.com" },
    })
    await browser.fetch("/auth/signout", { form: { csrfToken: await browser.csrfToken() } })
    expect(await database.adapter.getSessionAndUser!(storedToken)).toBeNull()
    expect(await browser.session()).toBeNull()
  })

  it("listSessions and revokeSessions say what the adapter lacks and how to add it", async () => {
    const { config } = setup()
    await expect(listSessions(config, "1")).rejects.toMatchObject({
      type: "MissingAdapterMethods",
      message: expect.stringMatching(/listSessionsByUserId.*Auth\.js's adapters do not have it/),
    })
    await expect(revokeSessions(config, "1")).rejects.toMatchObject({
      type: "MissingAdapterMethods",
      message: expect.stringMatching(/deleteSessionsByUserId.*@latch\/pg-adapter/),
    })
  })
})
