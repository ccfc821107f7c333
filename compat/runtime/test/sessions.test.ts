/**
 * Session cookies across the switch, both ways: the cookies Auth.js itself wrote (a JWT from a
 * credentials sign-in, plain and chunked on https; a database session of @auth/pg-adapter) read
 * as Latch sessions with no option set, and the cookies Latch wrote read as Auth.js sessions.
 */
import AuthjsCredentials from "@auth/core/providers/credentials"
import AuthjsNodemailer from "@auth/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import Credentials from "@latch/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Browser, SECRET } from "../../../packages/core/test/helpers/request.js"
import { authjs, type Jar } from "./authjs-client.js"
import { pgDatabase, type Database } from "./databases.js"

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

/** The same app on Latch, as after renaming the imports; `groups` makes its cookie big. */
function latchJWTApp(groups = 0): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ada })],
    callbacks: {
      jwt: ({ token }) => ({
        ...token,
        role: "admin",
        ...(groups ? { groups: Array.from({ length: groups }, (_, i) => `group-${i}`) } : {}),
      }),
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, role: token.role },
      }),
    },
  }
}

/** The session Auth.js answers for a jar's cookies. */
async function authjsSession(config: object, cookies: Map<string, string>, origin: string) {
  const response = await authjs(config, new Map(cookies), `${origin}/auth/session`)
  return (await response.json()) as Record<string, any> | null
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

describe("a JWT session, across the switch and back", () => {
  it("a cookie Auth.js wrote is a Latch session, under the same cookie, with no option", async () => {
    const jar = await authjsJWTSignIn("http://localhost:3000")
    expect([...jar.keys()]).toContain("authjs.session-token")
    const browser = new Browser(latchJWTApp())
    browser.cookies.set("authjs.session-token", jar.get("authjs.session-token")!)
    expect(await browser.session()).toMatchObject({
      user: { name: "Ada", email: "ada@example.com", id: "ada-1", role: "admin" },
    })
    expect([...browser.cookies.keys()]).toEqual(["authjs.session-token"])
  })

  it("reads the chunked __Secure- cookie of an https site", async () => {
    const origin = "https://app.example"
    const jar = await authjsJWTSignIn(origin, 300)
    const chunks = [...jar.keys()].filter((name) =>
      name.startsWith("__Secure-authjs.session-token."),
    )
    expect(chunks.length).toBeGreaterThan(1)
    const browser = new Browser(latchJWTApp(), origin)
    for (const name of chunks) browser.cookies.set(name, jar.get(name)!)
    expect(await browser.session()).toMatchObject({ user: { id: "ada-1" } })
  })

  it("a cookie Latch wrote is an Auth.js session: a switch back signs nobody out", async () => {
    for (const [origin, groups] of [
      ["http://localhost:3000", 0],
      ["https://app.example", 300],
    ] as const) {
      const browser = new Browser(latchJWTApp(groups), origin)
      const signIn = await browser.signIn("ada", "")
      expect(signIn.status, origin).toBe(302)
      const names = [...browser.cookies.keys()].filter((name) => name.includes("session-token"))
      expect(names.length, origin).toBeGreaterThan(groups ? 1 : 0)
      expect(await authjsSession(authjsJWTApp(groups), browser.cookies, origin)).toMatchObject({
        user: { name: "Ada", email: "ada@example.com" },
      })
    }
  })

  it("a session of an earlier Latch release (latch.session-token) carries on, and then reads on Auth.js too", async () => {
    // Written as earlier releases wrote it: Latch's own key derivation, under `latch.session-token`.
    const { EncryptJWT } = await import("jose")
    const { hkdfSync } = await import("node:crypto")
    const salt = "latch.session-token"
    const key = hkdfSync("sha256", SECRET, salt, `Latch Generated Encryption Key (${salt})`, 64)
    const old = await new EncryptJWT({
      name: "Ada",
      email: "ada@example.com",
      sub: "ada-1",
      role: "admin",
    })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(new Uint8Array(key))
    const browser = new Browser(latchJWTApp())
    browser.cookies.set(salt, old)
    expect(await browser.session()).toMatchObject({ user: { id: "ada-1", role: "admin" } })
    expect([...browser.cookies.keys()]).toEqual(["authjs.session-token"])
    expect(
      await authjsSession(authjsJWTApp(), browser.cookies, "http://localhost:3000"),
    ).toMatchObject({ user: { email: "ada@example.com" } })
  })
})

describe("an Auth.js app whose secret is short", () => {
  it("puts a new secret in front of it: production accepts it, and its users stay signed in", async () => {
    const short = "an-auth-js-secret"
    const config = { ...authjsJWTApp(), secret: short }
    const jar: Jar = new Map()
    const origin = "http://localhost:3000"
    const csrfToken = await csrf(config, jar, origin)
    await authjs(config, jar, `${origin}/auth/callback/credentials`, { csrfToken, username: "ada" })
    expect(jar.has("authjs.session-token")).toBe(true)

    vi.stubEnv("NODE_ENV", "production")
    try {
      const refused = new Browser({ ...latchJWTApp(), secret: short })
      expect((await refused.fetch("/auth/session")).status).toBe(500)

      const browser = new Browser({ ...latchJWTApp(), secret: [`new-${SECRET}`, short] })
      browser.cookies.set("authjs.session-token", jar.get("authjs.session-token")!)
      expect(await browser.session()).toMatchObject({ user: { id: "ada-1", role: "admin" } })
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe("a database session of @auth/pg-adapter, across the switch and back", () => {
  let database: Database
  beforeAll(async () => {
    database = await pgDatabase()
  })
  afterAll(async () => {
    await database?.close()
  })

  const origin = "http://localhost:3000"
  function authjsConfig(mails: string[]) {
    return {
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
  }

  /** A database session Auth.js made through an email sign-in: its cookie jar. */
  async function authjsSignIn(email: string): Promise<Jar> {
    const mails: string[] = []
    const config = authjsConfig(mails)
    const jar: Jar = new Map()
    const csrfToken = await csrf(config, jar, origin)
    await authjs(config, jar, `${origin}/auth/signin/nodemailer`, { csrfToken, email })
    await authjs(config, jar, mails[0]!)
    const token = jar.get("authjs.session-token")!
    expect(await database.adapter.getSessionAndUser!(token)).toMatchObject({ user: { email } })
    return jar
  }

  const latch = (session: AuthConfig["session"] = {}): AuthConfig => ({
    secret: SECRET,
    trustHost: true,
    adapter: database.adapter,
    session,
    logger: quiet,
    providers: [],
  })

  it("its cookie is a Latch session with no option set, under the same cookie", async () => {
    const jar = await authjsSignIn("grace@example.com")
    const browser = new Browser(latch())
    browser.cookies.set("authjs.session-token", jar.get("authjs.session-token")!)
    expect(await browser.session()).toMatchObject({ user: { email: "grace@example.com" } })
    expect([...browser.cookies.keys()]).toEqual(["authjs.session-token"])
  })

  it("switching back: Auth.js finds it with session.hashTokens off, not once Latch hashed it", async () => {
    // Kept as Auth.js stores it: the switch back reads it.
    const kept = await authjsSignIn("ada@example.com")
    const plain = new Browser(latch({ hashTokens: false }))
    plain.cookies.set("authjs.session-token", kept.get("authjs.session-token")!)
    expect(await plain.session()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(await authjsSession(authjsConfig([]), plain.cookies, origin)).toMatchObject({
      user: { email: "ada@example.com" },
    })

    // Hashed (the default): the row is stored under the token's hash, which Auth.js never looks
    // up — the one way a switch back signs users out ("What differs": database session tokens).
    const moved = await authjsSignIn("alan@example.com")
    const hashing = new Browser(latch())
    hashing.cookies.set("authjs.session-token", moved.get("authjs.session-token")!)
    expect(await hashing.session()).toMatchObject({ user: { email: "alan@example.com" } })
    expect(await authjsSession(authjsConfig([]), hashing.cookies, origin)).toBeNull()
  })
})
