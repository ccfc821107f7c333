/**
 * Removing a passkey in PostgreSQL, on PGlite and on a real server: `deleteAuthenticator` deletes
 * one row and returns it (`null` when there is none), touches nothing else of the user, hands a
 * passkey to one of several concurrent callers only, finds its row through the primary key, and
 * a deleted user takes their passkeys with them. With `unlinkAccount` and `listAccountsByUserId`
 * it removes a passkey the way Latch registers it: an account of type `"webauthn"` and an
 * authenticator.
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import type { AdapterAccount, AdapterAuthenticator } from "@latch/core/adapters"
import { PostgresAdapter, type Queryable } from "../src/index.js"
import { clients, useEmptyDatabase, onOneConnection } from "./clients.js"

const byCredentialId = (x: AdapterAuthenticator, y: AdapterAuthenticator) =>
  x.credentialID < y.credentialID ? -1 : 1

describe.each(clients)("deleteAuthenticator on $name", ({ open }) => {
  const db = useEmptyDatabase(open)
  const adapter = () => PostgresAdapter(db().client)

  async function newUser() {
    return adapter().createUser({
      id: `user-${randomUUID()}`,
      email: `${randomUUID()}@x.test`,
      emailVerified: null,
    })
  }

  /** A passkey as Latch registers one: the credential, linked as a `"webauthn"` account too. */
  async function newPasskey(userId: string, fields: Partial<AdapterAuthenticator> = {}) {
    const credentialID = Buffer.from(randomUUID()).toString("base64url")
    const account: AdapterAccount = {
      userId,
      type: "webauthn",
      provider: "passkey",
      providerAccountId: credentialID,
    }
    await adapter().linkAccount(account)
    const authenticator = await adapter().createAuthenticator({
      credentialID,
      userId,
      providerAccountId: credentialID,
      credentialPublicKey: Buffer.from(randomUUID()).toString("base64"),
      counter: 3,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal,hybrid",
      ...fields,
    })
    return { account, authenticator }
  }

  async function authenticatorRows(userId: string) {
    const { rows } = await db().client.query(
      "select credential_id from authenticators where user_id = $1 order by credential_id",
      [userId],
    )
    return (rows as { credential_id: string }[]).map((row) => row.credential_id)
  }

  it("deletes the passkey and returns it; it is gone from listAuthenticatorsByUserId", async () => {
    const user = await newUser()
    const other = await newUser()
    const { authenticator: removed } = await newPasskey(user.id, {
      counter: 4_294_967_295,
      transports: null,
      credentialBackedUp: false,
      credentialDeviceType: "singleDevice",
    })
    const { authenticator: kept } = await newPasskey(user.id)
    const { authenticator: theirs } = await newPasskey(other.id)

    const deleted = await adapter().deleteAuthenticator(removed.credentialID)
    expect(deleted).toEqual(removed)
    expect(typeof deleted!.counter).toBe("number")
    expect(typeof deleted!.credentialBackedUp).toBe("boolean")

    expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([kept])
    expect(await adapter().getAuthenticator(removed.credentialID)).toBeNull()
    expect(await authenticatorRows(user.id)).toEqual([kept.credentialID])
    // The user and everyone else's passkeys stay.
    expect(await adapter().getUser(user.id)).toEqual(user)
    expect(await adapter().listAuthenticatorsByUserId(other.id)).toEqual([theirs])
  })

  it("an unknown credential, or one already deleted, is null and deletes nothing", async () => {
    const user = await newUser()
    const { authenticator } = await newPasskey(user.id)
    expect(await adapter().deleteAuthenticator(`nothing-${randomUUID()}`)).toBeNull()
    expect(await adapter().deleteAuthenticator("")).toBeNull()
    expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([authenticator])

    expect(await adapter().deleteAuthenticator(authenticator.credentialID)).toEqual(authenticator)
    expect(await adapter().deleteAuthenticator(authenticator.credentialID)).toBeNull()
  })

  it("matches the credential id exactly: no pattern, no case folding", async () => {
    const user = await newUser()
    const { authenticator } = await newPasskey(user.id, { credentialID: "AbC_d-1%" })
    expect(await adapter().deleteAuthenticator("abc_d-1%")).toBeNull()
    expect(await adapter().deleteAuthenticator("AbC_d-%")).toBeNull()
    expect(await adapter().deleteAuthenticator("AbC_d-1")).toBeNull()
    expect(await adapter().deleteAuthenticator("AbC_d-1%")).toEqual(authenticator)
  })

  it("of 10 concurrent deleteAuthenticator calls, exactly one gets the passkey", async () => {
    const user = await newUser()
    const { authenticator } = await newPasskey(user.id)
    const results = await Promise.all(
      Array.from({ length: 10 }, () => adapter().deleteAuthenticator(authenticator.credentialID)),
    )
    expect(results.filter((result) => result !== null)).toEqual([authenticator])
    expect(await authenticatorRows(user.id)).toEqual([])
  })

  it("deleting the user deletes their passkeys, through deleteUser or plain SQL", async () => {
    const viaAdapter = await newUser()
    const viaSql = await newUser()
    const other = await newUser()
    const { authenticator: first } = await newPasskey(viaAdapter.id)
    await newPasskey(viaAdapter.id)
    const { authenticator: second } = await newPasskey(viaSql.id)
    const { authenticator: theirs } = await newPasskey(other.id)

    await adapter().deleteUser(viaAdapter.id)
    await db().client.query("delete from users where id = $1", [viaSql.id])
    expect(await authenticatorRows(viaAdapter.id)).toEqual([])
    expect(await authenticatorRows(viaSql.id)).toEqual([])
    expect(await adapter().listAuthenticatorsByUserId(viaAdapter.id)).toEqual([])
    expect(await adapter().deleteAuthenticator(first.credentialID)).toBeNull()
    expect(await adapter().deleteAuthenticator(second.credentialID)).toBeNull()
    expect(await adapter().listAuthenticatorsByUserId(other.id)).toEqual([theirs])
  })

  it("removes one sign-in method of several: the passkey and its account, nothing else", async () => {
    // What an account page does: list the user's sign-in methods, then remove one passkey.
    const user = await newUser()
    const github: AdapterAccount = {
      userId: user.id,
      type: "oauth",
      provider: "github",
      providerAccountId: randomUUID(),
      access_token: "gho_token",
      token_type: "bearer",
      scope: "read:user",
    }
    await adapter().linkAccount(github)
    const removed = await newPasskey(user.id)
    const kept = await newPasskey(user.id)
    const hash = `$scrypt$ln=17,r=8,p=1$${randomUUID()}$${randomUUID()}`
    await adapter().setPasswordHash(user.id, hash)
    const session = await adapter().createSession({
      sessionToken: randomUUID(),
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
    })

    const byProvider = (x: AdapterAccount, y: AdapterAccount) =>
      `${x.provider} ${x.providerAccountId}` < `${y.provider} ${y.providerAccountId}` ? -1 : 1
    // Sorted here: the database's order of text depends on its collation.
    const accountsOf = async () => (await adapter().listAccountsByUserId(user.id)).sort(byProvider)
    expect(await accountsOf()).toEqual([github, removed.account, kept.account].sort(byProvider))
    expect((await adapter().listAuthenticatorsByUserId(user.id)).sort(byCredentialId)).toEqual(
      [removed.authenticator, kept.authenticator].sort(byCredentialId),
    )

    expect(await adapter().deleteAuthenticator(removed.authenticator.credentialID)).toEqual(
      removed.authenticator,
    )
    expect(await adapter().unlinkAccount(removed.account)).toEqual(removed.account)
    expect(await adapter().unlinkAccount(removed.account)).toBeUndefined()

    expect(await accountsOf()).toEqual([github, kept.account].sort(byProvider))
    expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([kept.authenticator])
    expect(await adapter().getUserByAccount(removed.account)).toBeNull()
    expect(await adapter().getPasswordHash(user.id)).toBe(hash)
    expect(await adapter().getSessionAndUser(session.sessionToken)).toEqual({ session, user })
  })

  it("sends the credential id as a parameter only, and finds the row through the primary key", async () => {
    const user = await newUser()
    const { authenticator } = await newPasskey(user.id)
    await onOneConnection(db().client, async (connection) => {
      const statements: { text: string; params: unknown[] }[] = []
      const recorder: Queryable = {
        query(text, params = []) {
          statements.push({ text, params })
          return connection.query(text, params)
        },
      }
      const recorded = PostgresAdapter(recorder)
      expect(await recorded.deleteAuthenticator(authenticator.credentialID)).toEqual(authenticator)
      expect(statements).toHaveLength(1)
      const [{ text, params }] = statements as [{ text: string; params: unknown[] }]
      expect(text).toMatch(/^delete from /)
      expect(text).not.toContain(authenticator.credentialID)
      expect(params).toEqual([authenticator.credentialID])

      // With sequential scans priced out, a plan shows one only where no index serves.
      await connection.query("set enable_seqscan = off")
      try {
        const { rows } = await connection.query(`explain ${text}`, params)
        const plan = (rows as Record<string, string>[]).map((row) => row["QUERY PLAN"]).join("\n")
        expect(plan, `${text}\n${plan}`).not.toMatch(/Seq Scan/)
        expect(plan).toMatch(/authenticators_pkey/)
      } finally {
        await connection.query("reset enable_seqscan")
      }
    })
  })
})
