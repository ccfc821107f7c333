/**
 * Passkeys through `Auth` with the PostgreSQL adapter as the store, on PGlite and on a
 * PostgreSQL server: credentials registered and used by a software authenticator, counters
 * moving in the database, and a spent challenge refused by another app instance sharing it.
 */
import { beforeEach, describe, expect, it } from "vitest"
import Credentials from "../../core/src/providers/credentials.js"
import Passkey from "../../core/src/providers/passkey.js"
import type { WebAuthnUserConfig } from "../../core/src/providers/webauthn.js"
import { SoftAuthenticator, type CeremonyInput } from "../../core/test/helpers/authenticator.js"
import { ALICE, Browser, ORIGIN, SECRET } from "../../core/test/helpers/request.js"
import type { AuthConfig } from "../../core/src/types.js"
import { PostgresAdapter } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

const CHALLENGE_COOKIE = "authjs.challenge"

const ceremony = (challenge: string): CeremonyInput => ({
  challenge,
  origin: ORIGIN,
  rpId: "localhost",
})

describe.each(clients)("passkeys on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  beforeEach(async () => {
    await PostgresAdapter(db().client).createUser({ ...ALICE, emailVerified: null })
  })

  /** One app instance: its own adapter object and configuration, on the shared database. */
  function instance(
    strategy: "database" | "jwt" = "database",
    passkey: WebAuthnUserConfig = {},
  ): AuthConfig {
    return {
      secret: SECRET,
      trustHost: true,
      adapter: PostgresAdapter(db().client),
      session: { strategy },
      experimental: { enableWebAuthn: true },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: ({ username }) => (username === "alice" ? ALICE : null),
        }),
        Passkey(passkey),
      ],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
  }

  async function options(browser: Browser, action: string) {
    const response = await browser.fetch(`/auth/webauthn-options/passkey?action=${action}`)
    expect(response.status).toBe(200)
    return ((await response.json()) as { options: { challenge: string; user?: { id: string } } })
      .options
  }

  async function post(browser: Browser, action: string, data: unknown) {
    const csrfToken = await browser.csrfToken()
    return browser.fetch("/auth/callback/passkey", {
      form: { csrfToken, action, data: JSON.stringify(data), callbackUrl: "/home" },
    })
  }

  async function register(config: AuthConfig, authenticator: SoftAuthenticator) {
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    await browser.fetch("/auth/callback/credentials", {
      form: { csrfToken, username: "alice", password: "x" },
    })
    const registration = await options(browser, "register")
    const { credential, response } = authenticator.create(
      ceremony(registration.challenge),
      registration.user!.id,
    )
    const result = await post(browser, "register", response)
    expect(result.headers.get("location")).toBe(`${ORIGIN}/home`)
    return credential
  }

  it.each(["database", "jwt"] as const)(
    "registers on one instance and signs in on another (%s sessions)",
    async (strategy) => {
      const authenticator = new SoftAuthenticator()
      const credential = await register(instance(strategy), authenticator)
      const { rows } = await db().client.query(
        "select credential_id, user_id, counter::int as counter, credential_public_key, transports from authenticators",
      )
      expect(rows).toEqual([
        {
          // Padded standard base64, as Auth.js stores it.
          credential_id: credential.rawId.toString("base64"),
          user_id: ALICE.id,
          counter: 0,
          credential_public_key: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
          transports: "internal",
        },
      ])

      const browser = new Browser(instance(strategy))
      const authentication = await options(browser, "authenticate")
      const assertion = authenticator.get(credential, ceremony(authentication.challenge))
      const result = await post(browser, "authenticate", assertion)
      expect(result.headers.get("location")).toBe(`${ORIGIN}/home`)
      expect((await browser.session())?.user?.email).toBe(ALICE.email)
      const { rows: after } = await db().client.query(
        "select counter::int as counter from authenticators",
      )
      expect(after).toEqual([{ counter: 1 }])
    },
  )

  it("refuses on a second instance a request replayed with its cookie", async () => {
    const authenticator = new SoftAuthenticator({ counter: false })
    const credential = await register(instance(), authenticator)

    const first = new Browser(instance())
    const authentication = await options(first, "authenticate")
    const captured = first.cookies.get(CHALLENGE_COOKIE)!
    const assertion = authenticator.get(credential, ceremony(authentication.challenge))
    expect((await post(first, "authenticate", assertion)).headers.get("location")).toBe(
      `${ORIGIN}/home`,
    )

    const attacker = new Browser(instance())
    attacker.cookies.set(CHALLENGE_COOKIE, captured)
    const replay = await post(attacker, "authenticate", assertion)
    const location = new URL(replay.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(location.searchParams.get("code")).toBe("replay")
    expect(await attacker.session()).toBeNull()
    const { rows } = await db().client.query(
      "select count from counters where key like 'webauthn:challenge:%'",
    )
    // Two ceremonies spent a challenge (the registration and the sign-in); the replay counted 2.
    expect(rows.map((row) => Number((row as { count: number }).count)).sort()).toEqual([1, 2])
  })

  it("creates the account of an address the app proved, with its passkey", async () => {
    // An app that checked a code it mailed to the address vouches for it; by default nobody is.
    const proven: WebAuthnUserConfig = {
      getUserInfo: async ({ adapter }, { query }) => {
        if (query.email !== "new@example.com") return null
        const taken = await adapter.getUserByEmail!(query.email)
        return taken ? null : { user: { email: query.email }, exists: false }
      },
    }
    const refused = await new Browser(instance()).fetch(
      "/auth/webauthn-options/passkey?email=new@example.com&action=register",
    )
    expect(refused.status).toBe(403)
    const browser = new Browser(instance("database", proven))
    const response = await browser.fetch("/auth/webauthn-options/passkey?email=new@example.com")
    const { action, options: registration } = (await response.json()) as {
      action: string
      options: { challenge: string; user: { id: string } }
    }
    expect(action).toBe("register")
    const { response: created } = new SoftAuthenticator().create(
      ceremony(registration.challenge),
      registration.user.id,
    )
    expect((await post(browser, "register", created)).headers.get("location")).toBe(
      `${ORIGIN}/home`,
    )
    const { rows } = await db().client.query(
      `select u.email, u.email_verified, a.type, a.provider
         from users u join accounts a on a.user_id = u.id where u.email = $1`,
      ["new@example.com"],
    )
    expect(rows).toEqual([
      { email: "new@example.com", email_verified: null, type: "webauthn", provider: "passkey" },
    ])
  })
})
