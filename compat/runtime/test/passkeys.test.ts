/**
 * Passkeys move between Auth.js and Latch in both directions: one registered through Auth.js's
 * own `Auth()` (with @simplewebauthn/server 9, as Auth.js runs it) signs in on Latch, and one
 * Latch registers signs in on Auth.js — on the same rows of @auth/drizzle-adapter.
 */
import Credentials from "@latch/core/providers/credentials"
import Passkey from "@latch/core/providers/passkey"
import type { AuthConfig } from "@latch/core/types"
import { registerWithAuthjs, signInWithAuthjs } from "latch-compat-authjs-webauthn"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { SoftAuthenticator } from "../../../packages/core/test/helpers/authenticator.js"
import { Browser, ORIGIN, SECRET } from "../../../packages/core/test/helpers/request.js"
import { drizzleDatabase, type Database } from "./databases.js"

const RP_ID = "localhost"
const ceremony = (challenge: string) => ({ challenge, origin: ORIGIN, rpId: RP_ID })

let database: Database
beforeAll(async () => {
  database = await drizzleDatabase()
})
afterAll(async () => {
  await database?.close()
})
beforeEach(async () => {
  await database.empty()
})

function latchConfig(users: Record<string, string> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: database.adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username }) =>
          (users[String(username)] &&
            (await database.adapter.getUser!(users[String(username)]!))) ||
          null,
      }),
      Passkey({}),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

async function authenticatorRows() {
  const { rows } = await database.db.query<{ credentialID: string; counter: number }>(
    `select "credentialID", counter from authenticator`,
  )
  return rows
}

describe("passkeys between Auth.js and Latch, on @auth/drizzle-adapter", () => {
  it("a passkey registered through Auth.js signs in on Latch, whose counter moves on that row", async () => {
    // Full-length ECDSA integers, which Auth.js's @simplewebauthn/server 9 needs (see flows.ts).
    const authenticator = new SoftAuthenticator({ signatures: "full-length" })
    let credential: ReturnType<SoftAuthenticator["create"]>["credential"] | undefined
    const registered = await registerWithAuthjs({
      adapter: database.adapter,
      secret: SECRET,
      email: "ada@example.com",
      create: (options: { challenge: string; user: { id: string } }) => {
        const made = authenticator.create(ceremony(options.challenge), options.user.id)
        credential = made.credential
        return made.response
      },
    })
    expect(registered.response.status).toBe(302)
    expect(registered.response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    // Auth.js stores the id as padded standard base64.
    const [row] = await authenticatorRows()
    expect(row!.credentialID).toBe(credential!.rawId.toString("base64"))
    expect(row!.credentialID).toMatch(/=$/)

    const browser = new Browser(latchConfig())
    const options = await browser.fetch("/auth/webauthn-options/passkey?action=authenticate")
    const { options: get } = (await options.json()) as { options: { challenge: string } }
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/callback/passkey", {
      form: {
        csrfToken,
        action: "authenticate",
        data: JSON.stringify(authenticator.get(credential!, ceremony(get.challenge))),
        callbackUrl: "/dashboard",
      },
    })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await browser.session()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(await authenticatorRows()).toEqual([{ credentialID: row!.credentialID, counter: 1 }])
  })

  it("a passkey registered on Latch is stored as Auth.js stores it, and signs in on Auth.js", async () => {
    const user = await database.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "grace@example.com",
      emailVerified: null,
      name: "Grace",
    })
    const browser = new Browser(latchConfig({ grace: user.id }))
    await browser.signIn("grace", "any")
    const options = await browser.fetch("/auth/webauthn-options/passkey?action=register")
    const { options: create } = (await options.json()) as {
      options: { challenge: string; user: { id: string } }
    }
    // Full-length ECDSA integers, which Auth.js's @simplewebauthn/server 9 needs (see flows.ts).
    const authenticator = new SoftAuthenticator({ signatures: "full-length" })
    const { credential, response: created } = authenticator.create(
      ceremony(create.challenge),
      create.user.id,
    )
    const registered = await browser.fetch("/auth/callback/passkey", {
      form: {
        csrfToken: await browser.csrfToken(),
        action: "register",
        data: JSON.stringify(created),
        callbackUrl: "/dashboard",
      },
    })
    expect(registered.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const [row] = await authenticatorRows()
    expect(row!.credentialID).toBe(credential.rawId.toString("base64"))

    const signedIn = await signInWithAuthjs({
      adapter: database.adapter,
      secret: SECRET,
      get: (get: { challenge: string }) => authenticator.get(credential, ceremony(get.challenge)),
    })
    expect(signedIn.response.status).toBe(302)
    expect(signedIn.response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect([...signedIn.cookies.keys()]).toContain("authjs.session-token")
    expect(await authenticatorRows()).toEqual([{ credentialID: row!.credentialID, counter: 1 }])
  })
})
