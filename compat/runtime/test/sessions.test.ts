/**
 * `migrateSessions`: the session cookies Auth.js itself wrote (a JWT from a credentials sign-in,
 * plain and chunked on https; a database session of @auth/pg-adapter) become Latch sessions.
 */
import { Auth as AuthjsAuth } from "@auth/core"
import AuthjsCredentials from "@auth/core/providers/credentials"
import AuthjsNodemailer from "@auth/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import Credentials from "@latch/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Browser, SECRET } from "../../../packages/core/test/helpers/request.js"
import { pgDatabase, type Database } from "./databases.js"

type Jar = Map<string, string>

/** Requests to Auth.js's `Auth()`, keeping its cookies as a browser does. */
async function authjs(config: object, jar: Jar, url: string, form?: Record<string, string>) {
  const headers = new Headers()
  if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "))
  if (form) headers.set("content-type", "application/x-www-form-urlencoded")
  const response = await AuthjsAuth(
    new Request(url, {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    }),
    config as Parameters<typeof AuthjsAuth>[1],
  )
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const name = pair!.slice(0, pair!.indexOf("="))
    const value = pair!.slice(pair!.indexOf("=") + 1)
    if (value === "" || /max-age=0/i.test(line)) jar.delete(name)
    else jar.set(name, value)
  }
  return response
}

async function csrf(config: object, jar: Jar, origin: string) {
  const response = await authjs(config, jar, `${origin}/auth/csrf`)
  return ((await response.json()) as { csrfToken: string }).csrfToken
}

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const ada = { id: "ada-1", name: "Ada", email: "ada@example.com" }

/** An Auth.js app with credentials and JWT sessions; `groups` makes its cookie big. */
function authjsJWTApp(groups = 0) {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: quiet,
    providers: [AuthjsCredentials({ credentials: { username: {} }, authorize: () => ada })],
    callbacks: {
      jwt: ({ token }: { token: Record<string, unknown> }) => ({
        ...token,
        role: "admin",
        ...(groups ? { groups: Array.from({ length: groups }, (_, i) => `group-${i}`) } : {}),
      }),
    },
  }
}

/** The same app on Latch, as after renaming the imports, with `migrateSessions`. */
function latchJWTApp(migrateSessions: boolean): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    migrateSessions,
    logger: quiet,
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ada })],
    callbacks: {
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, role: token.role },
      }),
    },
  }
}

async function authjsJWTSignIn(origin: string, groups = 0): Promise<Jar> {
  const jar: Jar = new Map()
  const config = authjsJWTApp(groups)
  const csrfToken = await csrf(config, jar, origin)
  const response = await authjs(config, jar, `${origin}/auth/callback/credentials`, {
    csrfToken,
    username: "ada",
  })
  expect(response.status).toBe(302)
  return jar
}

describe("migrateSessions with a JWT session Auth.js wrote", () => {
  it("becomes a Latch session, and the Auth.js cookie is deleted", async () => {
    const jar = await authjsJWTSignIn("http://localhost:3000")
    expect([...jar.keys()]).toContain("authjs.session-token")
    const browser = new Browser(latchJWTApp(true))
    browser.cookies.set("authjs.session-token", jar.get("authjs.session-token")!)
    expect(await browser.session()).toMatchObject({
      user: { name: "Ada", email: "ada@example.com", id: "ada-1", role: "admin" },
    })
    expect([...browser.cookies.keys()]).toEqual(["latch.session-token"])
    expect(await browser.session()).toMatchObject({ user: { id: "ada-1", role: "admin" } })
  })

  it("reads the chunked __Secure- cookie of an https site", async () => {
    const origin = "https://app.example"
    const jar = await authjsJWTSignIn(origin, 300)
    const chunks = [...jar.keys()].filter((name) =>
      name.startsWith("__Secure-authjs.session-token."),
    )
    expect(chunks.length).toBeGreaterThan(1)
    const browser = new Browser(latchJWTApp(true), origin)
    for (const name of chunks) browser.cookies.set(name, jar.get(name)!)
    expect(await browser.session()).toMatchObject({ user: { id: "ada-1" } })
    expect([...browser.cookies.keys()].some((name) => name.includes("authjs"))).toBe(false)
  })

  it("is ignored with the option off", async () => {
    const jar = await authjsJWTSignIn("http://localhost:3000")
    const browser = new Browser(latchJWTApp(false))
    browser.cookies.set("authjs.session-token", jar.get("authjs.session-token")!)
    expect(await browser.session()).toBeNull()
    expect(browser.cookies.has("authjs.session-token")).toBe(true)
  })
})

describe("migrateSessions with a database session of @auth/pg-adapter", () => {
  let database: Database
  beforeAll(async () => {
    database = await pgDatabase()
  })
  afterAll(async () => {
    await database?.close()
  })

  it("carries the row on under Latch's cookie; ignored with the option off", async () => {
    const origin = "http://localhost:3000"
    const mails: string[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      logger: quiet,
      adapter: database.adapter,
      providers: [
        AuthjsNodemailer({
          server: "smtp://127.0.0.1:1",
          from: "app@example.com",
          sendVerificationRequest: async ({ url }: { url: string }) => {
            mails.push(url)
          },
        }),
      ],
    }
    const jar: Jar = new Map()
    const csrfToken = await csrf(config, jar, origin)
    await authjs(config, jar, `${origin}/auth/signin/nodemailer`, {
      csrfToken,
      email: "grace@example.com",
    })
    await authjs(config, jar, mails[0]!)
    const token = jar.get("authjs.session-token")!
    expect(await database.adapter.getSessionAndUser!(token)).toMatchObject({
      user: { email: "grace@example.com" },
    })

    const latch = (migrateSessions: boolean): AuthConfig => ({
      secret: SECRET,
      trustHost: true,
      adapter: database.adapter,
      migrateSessions,
      logger: quiet,
      providers: [],
    })
    const off = new Browser(latch(false))
    off.cookies.set("authjs.session-token", token)
    expect(await off.session()).toBeNull()

    const on = new Browser(latch(true))
    on.cookies.set("authjs.session-token", token)
    expect(await on.session()).toMatchObject({ user: { email: "grace@example.com" } })
    expect([...on.cookies]).toEqual([["latch.session-token", token]])
  })
})
