/**
 * The cases of the conformance suite, grouped by what they store.
 */
import type { DefineCase, Full } from "./case.js"
import { defineDeleteAuthenticatorCases } from "./authenticator-cases.js"
import {
  fromNow,
  newAccount,
  newAuthenticatorFor,
  newLatchSession,
  newSession,
  newUser,
  newVerificationToken,
  randomId,
} from "./fixtures.js"
import { adapterMethods } from "./methods.js"
import { definePasskeyFieldCases } from "./passkey-field-cases.js"
import { definePasswordCases } from "./password-cases.js"
import { defineSessionFieldCases } from "./session-cases.js"
import type { TestApi } from "./test-api.js"
import { defineTwoFactorCases } from "./two-factor-cases.js"

type WithAdapter = (test: (adapter: Full) => Promise<void>) => Promise<void>

export function defineCases(t: TestApi, withAdapter: WithAdapter): void {
  const { describe, expect } = t
  const it: DefineCase = (title, test) =>
    t.it(title, (context?: { skip?: (note?: string) => void }) =>
      withAdapter((adapter) => test(adapter, (why) => context?.skip?.(why))),
    )
  /**
   * A new session of `userId`, with Latch's session fields when the adapter stores them (it
   * implements `deleteSessionById`), as core creates sessions: so that every session case checks
   * those fields too.
   */
  const newSessionFor = (a: Full, userId: string) =>
    typeof a.deleteSessionById === "function" ? newLatchSession(userId) : newSession(userId)
  /** "Not found" for methods whose type allows null or undefined. */
  const expectNothing = (value: unknown) => expect(value ?? null).toBeNull()

  it("implements every method of Adapter", async (a) => {
    const missing = adapterMethods.filter((method) => {
      try {
        return typeof a[method] !== "function"
      } catch {
        return true // the proxy of index.ts throws for a missing method
      }
    })
    expect(missing).toEqual([])
  })

  describe("users", () => {
    it("createUser returns the user, getUser finds it with its Date", async (a) => {
      const user = newUser()
      expect(await a.createUser(user)).toEqual(user)
      const found = await a.getUser(user.id)
      expect(found).toEqual(user)
      expect(found!.emailVerified).toBeInstanceOf(Date)
    })

    it("keeps a user without name, image or verified email", async (a) => {
      const user = newUser({ name: null, image: null, emailVerified: null })
      await a.createUser(user)
      const found = await a.getUser(user.id)
      expect(found!.email).toBe(user.email)
      expect(found!.emailVerified).toBeNull()
      expectNothing(found!.name)
      expectNothing(found!.image)
    })

    it("getUser of an unknown id is null", async (a) => {
      expect(await a.getUser(randomId("nobody"))).toBeNull()
    })

    it("getUserByEmail finds the user; an unknown email is null", async (a) => {
      const user = newUser()
      await a.createUser(user)
      expect(await a.getUserByEmail(user.email)).toEqual(user)
      expect(await a.getUserByEmail(`${randomId("nobody")}@example.com`)).toBeNull()
    })

    it("getUserByAccount finds the owner of a linked account; unknown is null", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const account = newAccount(user.id)
      await a.linkAccount(account)
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      expect(await a.getUserByAccount(key)).toEqual(user)
      expect(
        await a.getUserByAccount({ provider: account.provider, providerAccountId: randomId("x") }),
      ).toBeNull()
      expect(
        await a.getUserByAccount({
          provider: "other",
          providerAccountId: account.providerAccountId,
        }),
      ).toBeNull()
    })

    it("updateUser changes only the fields given", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const renamed = await a.updateUser({ id: user.id, name: "Augusta Ada King" })
      expect(renamed).toEqual({ ...user, name: "Augusta Ada King" })
      expect(await a.getUser(user.id)).toEqual({ ...user, name: "Augusta Ada King" })

      const verified = fromNow(0)
      const email = `${randomId("new")}@example.com`
      await a.updateUser({ id: user.id, email, emailVerified: verified })
      const found = await a.getUser(user.id)
      expect(found).toEqual({ ...user, name: "Augusta Ada King", email, emailVerified: verified })
      expect(await a.getUserByEmail(email)).toEqual(found)
      expect(await a.getUserByEmail(user.email)).toBeNull()
    })

    it("updateUser with null clears a field", async (a) => {
      const user = newUser()
      await a.createUser(user)
      await a.updateUser({ id: user.id, image: null, emailVerified: null })
      const found = await a.getUser(user.id)
      expectNothing(found!.image)
      expect(found!.emailVerified).toBeNull()
      expect(found!.name).toBe(user.name)
    })

    it("updateUser of an unknown id creates no user", async (a) => {
      const id = randomId("nobody")
      try {
        await a.updateUser({ id, name: "Ghost" })
      } catch {
        // Rejecting is fine too: the type has no "not found" value.
      }
      expect(await a.getUser(id)).toBeNull()
    })

    it("deleteUser removes the user with their accounts, sessions and authenticators", async (a) => {
      const user = newUser()
      const other = newUser()
      await a.createUser(user)
      await a.createUser(other)
      const account = newAccount(user.id)
      const session = newSessionFor(a, user.id)
      const authenticator = newAuthenticatorFor(a, user.id)
      const otherSession = newSessionFor(a, other.id)
      await a.linkAccount(account)
      await a.createSession(session)
      await a.createSession(otherSession)
      await a.createAuthenticator(authenticator)

      const deleted = await a.deleteUser(user.id)
      if (deleted) expect(deleted).toEqual(user)

      expect(await a.getUser(user.id)).toBeNull()
      expect(await a.getUserByEmail(user.email)).toBeNull()
      expect(await a.getAccount(account.providerAccountId, account.provider)).toBeNull()
      expect(
        await a.getUserByAccount({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        }),
      ).toBeNull()
      expect(await a.getSessionAndUser(session.sessionToken)).toBeNull()
      expect(await a.listSessionsByUserId(user.id)).toEqual([])
      expect(await a.getAuthenticator(authenticator.credentialID)).toBeNull()
      expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([])
      // Nobody else's rows.
      expect(await a.getUser(other.id)).toEqual(other)
      expect(await a.getSessionAndUser(otherSession.sessionToken)).toEqual({
        session: otherSession,
        user: other,
      })
    })

    it("deleteUser of an unknown id does not throw", async (a) => {
      expectNothing(await a.deleteUser(randomId("nobody")))
    })
  })

  describe("accounts", () => {
    it("linkAccount stores every token field; getAccount returns them", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const account = newAccount(user.id)
      const linked = await a.linkAccount(account)
      if (linked) expect(linked).toEqual(account)
      const found = await a.getAccount(account.providerAccountId, account.provider)
      expect(found).toEqual(account)
      expect(typeof found!.expires_at).toBe("number")
    })

    it("keeps an account without tokens", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const account = {
        userId: user.id,
        type: "email" as const,
        provider: "email",
        providerAccountId: user.email,
      }
      await a.linkAccount(account)
      expect(await a.getAccount(user.email, "email")).toEqual(account)
    })

    it("getAccount tells providers apart; unknown is null", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const providerAccountId = randomId("shared-sub")
      const first = newAccount(user.id, { provider: "github", providerAccountId, type: "oauth" })
      const second = newAccount(user.id, { provider: "gitlab", providerAccountId, type: "oauth" })
      await a.linkAccount(first)
      await a.linkAccount(second)
      expect(await a.getAccount(providerAccountId, "github")).toEqual(first)
      expect(await a.getAccount(providerAccountId, "gitlab")).toEqual(second)
      expect(await a.getAccount(providerAccountId, "discord")).toBeNull()
      expect(await a.getAccount(randomId("nobody"), "github")).toBeNull()
    })

    it("listAccountsByUserId lists a user's accounts, and no one else's", async (a) => {
      const user = newUser()
      const other = newUser()
      await a.createUser(user)
      await a.createUser(other)
      const github = newAccount(user.id, { provider: "github", type: "oauth" })
      const google = newAccount(user.id, { provider: "google" })
      await a.linkAccount(github)
      await a.linkAccount(google)
      await a.linkAccount(newAccount(other.id, { provider: "github", type: "oauth" }))
      const listed = await a.listAccountsByUserId(user.id)
      const byProvider = (x: { provider: string }, y: { provider: string }) =>
        x.provider.localeCompare(y.provider)
      expect([...listed].sort(byProvider)).toEqual([github, google])
      expect(await a.listAccountsByUserId(randomId("nobody"))).toEqual([])
    })

    it("updateAccount replaces the given token fields, clears those given as null", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const account = newAccount(user.id)
      await a.linkAccount(account)
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      const expiresAt = Math.floor(Date.now() / 1000) + 3600
      const updated = await a.updateAccount({
        ...key,
        access_token: "new-access",
        expires_at: expiresAt,
        refresh_token: null as never,
      })
      const { refresh_token: _cleared, ...kept } = account
      const expected = { ...kept, access_token: "new-access", expires_at: expiresAt }
      expect(updated).toEqual(expected)
      expect(await a.getAccount(key.providerAccountId, key.provider)).toEqual(expected)
      expect(
        await a.updateAccount({ provider: "github", providerAccountId: randomId("nobody") }),
      ).toBeNull()
    })

    it("unlinkAccount removes one account and keeps the others", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const github = newAccount(user.id, { provider: "github", type: "oauth" })
      const google = newAccount(user.id, { provider: "google" })
      await a.linkAccount(github)
      await a.linkAccount(google)

      const key = { provider: github.provider, providerAccountId: github.providerAccountId }
      const unlinked = await a.unlinkAccount(key)
      if (unlinked) expect(unlinked).toEqual(github)
      expect(await a.getAccount(github.providerAccountId, github.provider)).toBeNull()
      expect(await a.getUserByAccount(key)).toBeNull()
      expect(await a.getAccount(google.providerAccountId, google.provider)).toEqual(google)
      expect(await a.getUser(user.id)).toEqual(user)
    })

    it("unlinkAccount of an unknown account does not throw", async (a) => {
      expectNothing(await a.unlinkAccount({ provider: "github", providerAccountId: randomId("x") }))
    })
  })

  describe("sessions", () => {
    it("createSession returns the session; getSessionAndUser returns it with its user", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const session = newSessionFor(a, user.id)
      expect(await a.createSession(session)).toEqual(session)
      const found = await a.getSessionAndUser(session.sessionToken)
      expect(found).toEqual({ session, user })
      expect(found!.session.expires).toBeInstanceOf(Date)
    })

    it("getSessionAndUser of an unknown token is null", async (a) => {
      expect(await a.getSessionAndUser(randomId("no-session"))).toBeNull()
    })

    it("updateSession moves expires", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const session = newSessionFor(a, user.id)
      await a.createSession(session)
      const expires = fromNow(90 * 24 * 3_600_000)
      const updated = await a.updateSession({ sessionToken: session.sessionToken, expires })
      if (updated) expect(updated).toEqual({ ...session, expires })
      expect(await a.getSessionAndUser(session.sessionToken)).toEqual({
        session: { ...session, expires },
        user,
      })
    })

    it("updateSession of an unknown token returns nothing and creates nothing", async (a) => {
      const sessionToken = randomId("no-session")
      expectNothing(await a.updateSession({ sessionToken, expires: fromNow(1000) }))
      expect(await a.getSessionAndUser(sessionToken)).toBeNull()
    })

    it("deleteSession removes the session; an unknown token does not throw", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const session = newSessionFor(a, user.id)
      await a.createSession(session)
      const deleted = await a.deleteSession(session.sessionToken)
      if (deleted) expect(deleted).toEqual(session)
      expect(await a.getSessionAndUser(session.sessionToken)).toBeNull()
      expectNothing(await a.deleteSession(session.sessionToken))
      expect(await a.getUser(user.id)).toEqual(user)
    })

    it("listSessionsByUserId lists the user's sessions only", async (a) => {
      const user = newUser()
      const other = newUser()
      await a.createUser(user)
      await a.createUser(other)
      const sessions = [
        newSessionFor(a, user.id),
        newSessionFor(a, user.id),
        newSessionFor(a, user.id),
      ]
      for (const session of sessions) await a.createSession(session)
      await a.createSession(newSessionFor(a, other.id))

      const listed = await a.listSessionsByUserId(user.id)
      const byToken = (x: { sessionToken: string }, y: { sessionToken: string }) =>
        x.sessionToken < y.sessionToken ? -1 : 1
      expect([...listed].sort(byToken)).toEqual([...sessions].sort(byToken))
      expect(await a.listSessionsByUserId(randomId("nobody"))).toEqual([])
    })

    it("deleteSessionsByUserId deletes the user's sessions and returns how many", async (a) => {
      const user = newUser()
      const other = newUser()
      await a.createUser(user)
      await a.createUser(other)
      const mine = [newSessionFor(a, user.id), newSessionFor(a, user.id)]
      const theirs = newSessionFor(a, other.id)
      for (const session of [...mine, theirs]) await a.createSession(session)

      expect(await a.deleteSessionsByUserId(user.id)).toBe(2)
      for (const session of mine) expect(await a.getSessionAndUser(session.sessionToken)).toBeNull()
      expect(await a.listSessionsByUserId(user.id)).toEqual([])
      expect(await a.getSessionAndUser(theirs.sessionToken)).toEqual({
        session: theirs,
        user: other,
      })
      expect(await a.getUser(user.id)).toEqual(user)
      expect(await a.deleteSessionsByUserId(user.id)).toBe(0)
    })
  })

  describe("session fields and changes", () => {
    defineSessionFieldCases(t, it)
  })

  describe("passwords", () => {
    definePasswordCases(t, it)
  })

  describe("two-factor", () => {
    defineTwoFactorCases(t, it)
  })

  describe("verification tokens", () => {
    it("useVerificationToken returns the token once, then null", async (a) => {
      const token = newVerificationToken()
      const created = await a.createVerificationToken(token)
      if (created) expect(created).toEqual(token)
      const used = await a.useVerificationToken({
        identifier: token.identifier,
        token: token.token,
      })
      expect(used).toEqual(token)
      expect(used!.expires).toBeInstanceOf(Date)
      expect(
        await a.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toBeNull()
    })

    it("useVerificationToken of an unknown token is null", async (a) => {
      expect(
        await a.useVerificationToken({
          identifier: `${randomId("nobody")}@example.com`,
          token: randomId("token"),
        }),
      ).toBeNull()
    })

    it("a token is bound to its identifier", async (a) => {
      const token = newVerificationToken()
      await a.createVerificationToken(token)
      const wrong = { identifier: `${randomId("other")}@example.com`, token: token.token }
      expect(await a.useVerificationToken(wrong)).toBeNull()
      expect(
        await a.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toEqual(token)
    })

    it("returns an expired token as stored (core checks expires)", async (a) => {
      const token = newVerificationToken({ expires: fromNow(-60_000) })
      await a.createVerificationToken(token)
      expect(
        await a.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toEqual(token)
    })

    it("of 10 concurrent useVerificationToken calls, exactly one gets the token", async (a) => {
      const token = newVerificationToken()
      await a.createVerificationToken(token)
      const params = { identifier: token.identifier, token: token.token }
      const results = await Promise.all(
        Array.from({ length: 10 }, () => a.useVerificationToken(params)),
      )
      const winners = results.filter((result) => result !== null && result !== undefined)
      expect(winners).toHaveLength(1)
      expect(winners[0]).toEqual(token)
      expect(results.filter((result) => result === null)).toHaveLength(9)
    })

    it("keeps several tokens of one identifier apart", async (a) => {
      const first = newVerificationToken()
      const second = newVerificationToken({ identifier: first.identifier })
      await a.createVerificationToken(first)
      await a.createVerificationToken(second)
      expect(
        await a.useVerificationToken({ identifier: first.identifier, token: first.token }),
      ).toEqual(first)
      expect(
        await a.useVerificationToken({ identifier: second.identifier, token: second.token }),
      ).toEqual(second)
    })
  })

  describe("authenticators", () => {
    it("createAuthenticator returns it; getAuthenticator finds it", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const authenticator = newAuthenticatorFor(a, user.id, { counter: 7 })
      expect(await a.createAuthenticator(authenticator)).toEqual(authenticator)
      const found = await a.getAuthenticator(authenticator.credentialID)
      expect(found).toEqual(authenticator)
      expect(typeof found!.counter).toBe("number")
      expect(typeof found!.credentialBackedUp).toBe("boolean")
    })

    it("keeps an authenticator without transports", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const authenticator = newAuthenticatorFor(a, user.id, {
        transports: null,
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
      })
      await a.createAuthenticator(authenticator)
      const found = await a.getAuthenticator(authenticator.credentialID)
      expect(found).toMatchObject({
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
      })
      expectNothing(found!.transports)
    })

    it("getAuthenticator of an unknown credential is null", async (a) => {
      expect(await a.getAuthenticator(randomId("no-credential"))).toBeNull()
    })

    it("listAuthenticatorsByUserId lists the user's authenticators only", async (a) => {
      const user = newUser()
      const other = newUser()
      await a.createUser(user)
      await a.createUser(other)
      const mine = [newAuthenticatorFor(a, user.id), newAuthenticatorFor(a, user.id)]
      for (const authenticator of mine) await a.createAuthenticator(authenticator)
      await a.createAuthenticator(newAuthenticatorFor(a, other.id))

      const byId = (x: { credentialID: string }, y: { credentialID: string }) =>
        x.credentialID < y.credentialID ? -1 : 1
      const listed = await a.listAuthenticatorsByUserId(user.id)
      expect([...listed].sort(byId)).toEqual([...mine].sort(byId))
      expect(await a.listAuthenticatorsByUserId(randomId("nobody"))).toEqual([])
    })

    it("updateAuthenticatorCounter stores the new counter", async (a) => {
      const user = newUser()
      await a.createUser(user)
      const authenticator = newAuthenticatorFor(a, user.id)
      await a.createAuthenticator(authenticator)
      const updated = await a.updateAuthenticatorCounter(authenticator.credentialID, 42)
      expect(updated).toEqual({ ...authenticator, counter: 42 })
      expect(await a.getAuthenticator(authenticator.credentialID)).toEqual({
        ...authenticator,
        counter: 42,
      })
      // A 32-bit signature counter near its maximum survives the trip.
      await a.updateAuthenticatorCounter(authenticator.credentialID, 4_294_967_295)
      expect((await a.getAuthenticator(authenticator.credentialID))!.counter).toBe(4_294_967_295)
    })

    it("updateAuthenticatorCounter of an unknown credential creates nothing", async (a) => {
      const credentialID = randomId("no-credential")
      try {
        await a.updateAuthenticatorCounter(credentialID, 1)
      } catch {
        // Rejecting is fine: the type has no "not found" value.
      }
      expect(await a.getAuthenticator(credentialID)).toBeNull()
    })

    defineDeleteAuthenticatorCases(t, it)
    definePasskeyFieldCases(t, it)
  })

  describe("counters", () => {
    it("incrementCounter counts 1, 2, 3 for a key; keys are apart", async (a) => {
      const key = randomId("counter")
      const other = randomId("counter")
      const expires = fromNow(60_000)
      expect(await a.incrementCounter(key, expires)).toBe(1)
      expect(await a.incrementCounter(key, expires)).toBe(2)
      expect(await a.incrementCounter(other, expires)).toBe(1)
      expect(await a.incrementCounter(key, expires)).toBe(3)
    })

    it("an expired counter starts again at 1", async (a) => {
      const key = randomId("counter")
      expect(await a.incrementCounter(key, fromNow(-1_000))).toBe(1)
      expect(await a.incrementCounter(key, fromNow(60_000))).toBe(1)
      expect(await a.incrementCounter(key, fromNow(60_000))).toBe(2)
    })

    it("keeps the first expiry of a live window", async (a) => {
      const key = randomId("counter")
      // Long enough for the two calls on a loaded machine (a D1 call from Node crosses into
      // workerd and back), short enough to wait out.
      const first = fromNow(2_500)
      await a.incrementCounter(key, first)
      // A later call with a far expiry must not stretch the window.
      await a.incrementCounter(key, fromNow(3_600_000))
      await new Promise((resolve) => setTimeout(resolve, first.getTime() - Date.now() + 100))
      expect(await a.incrementCounter(key, fromNow(60_000))).toBe(1)
    })

    it("of 10 concurrent incrementCounter calls, each sees a different value", async (a) => {
      const key = randomId("counter")
      const expires = fromNow(60_000)
      const values = await Promise.all(
        Array.from({ length: 10 }, () => a.incrementCounter(key, expires)),
      )
      expect([...values].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    })

    it("getCounter reads a counter without counting; an unknown key is null", async (a) => {
      const key = randomId("counter")
      expect(await a.getCounter(key)).toBeNull()
      const expires = fromNow(60_000)
      await a.incrementCounter(key, expires)
      await a.incrementCounter(key, expires)
      const read = await a.getCounter(key)
      expect(read!.count).toBe(2)
      expect(read!.expires).toBeInstanceOf(Date)
      // A store may keep less than milliseconds.
      expect(Math.abs(read!.expires.getTime() - expires.getTime()) < 1_000).toBe(true)
      expect((await a.getCounter(key))!.count).toBe(2)
      expect(await a.incrementCounter(key, expires)).toBe(3)
    })

    it("getCounter gives the first expiry of the window, and null once it passed", async (a) => {
      const key = randomId("counter")
      // Long enough for three calls on a loaded machine, short enough to wait out.
      const first = fromNow(2_500)
      await a.incrementCounter(key, first)
      await a.incrementCounter(key, fromNow(3_600_000))
      const read = await a.getCounter(key)
      expect(read!.count).toBe(2)
      expect(Math.abs(read!.expires.getTime() - first.getTime()) < 1_000).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, first.getTime() - Date.now() + 100))
      // Expired but maybe not swept yet: still no counter.
      expect(await a.getCounter(key)).toBeNull()
      const past = randomId("counter")
      await a.incrementCounter(past, fromNow(-1_000))
      expect(await a.getCounter(past)).toBeNull()
    })
  })
}
