/**
 * The passkeys a user manages, through `Auth` with real WebAuthn payloads: what registration
 * stores (name, model, browser, dates), what a sign-in records, the list and the Signal API data
 * of `GET /auth/account`, renaming (`POST /auth/passkey/rename`) and removing. Also an adapter
 * written for Auth.js, which must never see Latch's passkey fields.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { getPasskeySignals, listSignInMethods } from "../../src/index.js"
import type { AdapterAuthenticator } from "../../src/adapters.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  owner,
  passkeySignIn,
  post,
  reauthenticationAsked,
  signIn,
  steal,
  type App,
} from "../helpers/account-security.js"
import { Browser, ORIGIN } from "../helpers/request.js"

afterEach(() => vi.useRealTimers())

const ICLOUD = "fbfc3007-154e-4ecc-8c0b-6e020557d7bd"
const UNLISTED = "0102a0b0-c0d0-e0f0-0102-030405060708"
const CHROME_ON_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

/** The fields Auth.js's adapters store for a passkey: nothing else may reach them. */
const AUTHJS_FIELDS = [
  "credentialID",
  "userId",
  "providerAccountId",
  "credentialPublicKey",
  "counter",
  "credentialDeviceType",
  "credentialBackedUp",
  "transports",
].sort()

/** Ada, signed in with her password just now (fresh proof), in a Chrome on macOS. */
async function adaSignedIn(
  strategy: "jwt" | "database" = "database",
  context: App = app({ strategy }),
) {
  const user = await owner(context.adapter)
  const browser = new Browser(context.config)
  browser.userAgent = CHROME_ON_MAC
  await signIn(browser)
  return { ...context, user, browser }
}

async function account(browser: Browser) {
  const response = await browser.fetch("/auth/account")
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

const passkeysOf = async (browser: Browser) =>
  (await account(browser)).body.methods.filter((m: { type: string }) => m.type === "webauthn")

const rename = (browser: Browser, id: string, name: string) =>
  post(browser, "/auth/passkey/rename", { id, name, callbackUrl: "/profile" })

describe("registration", () => {
  it("stores the model's name, its AAGUID, the browser, and when it was made", async () => {
    const { adapter, browser, user } = await adaSignedIn()
    const before = Date.now()
    const added = await addPasskey(browser, new SoftAuthenticator({ aaguid: ICLOUD }))
    expect(added.answer!.location!.pathname).toBe("/profile")

    const [stored] = [...adapter.authenticators.values()]
    expect(stored).toMatchObject({
      userId: user.id,
      name: "iCloud Keychain",
      aaguid: ICLOUD,
      createdBy: "Chrome on macOS",
      lastUsedAt: null,
      secondFactor: false,
    })
    expect(stored!.createdAt!.getTime()).toBeGreaterThanOrEqual(before)
    expect(stored!.createdAt!.getTime()).toBeLessThanOrEqual(Date.now())
  })

  it("calls a passkey of no known model 'Passkey', and stores no AAGUID for all zeros", async () => {
    const { adapter, browser } = await adaSignedIn()
    browser.userAgent = undefined
    await addPasskey(browser, new SoftAuthenticator())
    await addPasskey(browser, new SoftAuthenticator({ aaguid: UNLISTED }))
    const stored = [...adapter.authenticators.values()]
    expect(stored.map((a) => [a.name, a.aaguid, a.createdBy])).toEqual([
      ["Passkey", null, null],
      ["Passkey", UNLISTED, null],
    ])
  })

  it("gives an adapter written for Auth.js (no updateAuthenticator) exactly Auth.js's fields", async () => {
    const context = app({ strategy: "database" })
    const { adapter } = context
    delete adapter.updateAuthenticator
    // As a table with only Auth.js's columns would: an unknown column fails the insert.
    const create = adapter.createAuthenticator!.bind(adapter)
    adapter.createAuthenticator = (authenticator: AdapterAuthenticator) => {
      const unknown = Object.keys(authenticator).filter((key) => !AUTHJS_FIELDS.includes(key))
      if (unknown.length) throw new Error(`column(s) ${unknown.join(", ")} do not exist`)
      return create(authenticator)
    }
    const counted = vi.spyOn(adapter, "updateAuthenticatorCounter")
    const { browser } = await adaSignedIn("database", context)
    const added = await addPasskey(browser, new SoftAuthenticator({ aaguid: ICLOUD }))
    expect(added.answer!.location!.pathname).toBe("/profile")
    const [stored] = [...adapter.authenticators.values()]
    expect(Object.keys(stored!).sort()).toEqual(AUTHJS_FIELDS)

    // Its sign-ins move the counter as before; the list still says what it knows.
    const { answer } = await passkeySignIn(context.config, added.authenticator!, added.credential!)
    expect(answer.location!.pathname).toBe("/home")
    expect(counted).toHaveBeenCalledTimes(1)
    const [listed] = await passkeysOf(browser)
    expect(listed.label).toBe("Passkey on one device")
    expect(listed.passkey).toEqual({
      name: "Passkey",
      createdAt: null,
      lastUsedAt: null,
      synced: false,
      backedUp: false,
      model: null,
      aaguid: null,
      createdBy: null,
      renamable: false,
    })
  })
})

describe("signing in", () => {
  it("records when the passkey was used, with the new counter, in one write", async () => {
    const { adapter, config, browser } = await adaSignedIn()
    const added = await addPasskey(browser, new SoftAuthenticator())
    const update = vi.spyOn(adapter, "updateAuthenticator")
    const counter = vi.spyOn(adapter, "updateAuthenticatorCounter")
    const before = Date.now()
    const { answer } = await passkeySignIn(config, added.authenticator!, added.credential!)
    expect(answer.location!.pathname).toBe("/home")

    expect(counter).not.toHaveBeenCalled()
    expect(update).toHaveBeenCalledTimes(1)
    const [credentialID, fields] = update.mock.calls[0]!
    expect(Object.keys(fields).sort()).toEqual(["counter", "lastUsedAt"])
    const [stored] = [...adapter.authenticators.values()]
    expect(credentialID).toBe(stored!.credentialID)
    expect(stored!.counter).toBe(1)
    expect(stored!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before)
  })
})

describe("the list and the Signal API data", () => {
  it("lists each passkey with its details, and the data the browser's Signal API takes", async () => {
    const { adapter, config, browser, user } = await adaSignedIn()
    const first = await addPasskey(browser, new SoftAuthenticator({ aaguid: ICLOUD }))
    await addPasskey(browser, new SoftAuthenticator())
    await passkeySignIn(config, first.authenticator!, first.credential!)

    const { body } = await account(browser)
    const stored = [...adapter.authenticators.values()]
    const passkeys = body.methods.filter((m: { type: string }) => m.type === "webauthn")
    expect(passkeys).toHaveLength(2)
    const icloud = passkeys.find((m: { id: string }) => m.id === stored[0]!.credentialID)
    expect(icloud.passkey).toEqual({
      name: "iCloud Keychain",
      createdAt: stored[0]!.createdAt!.toISOString(),
      lastUsedAt: stored[0]!.lastUsedAt!.toISOString(),
      synced: false,
      backedUp: false,
      model: "iCloud Keychain",
      aaguid: ICLOUD,
      createdBy: "Chrome on macOS",
      renamable: true,
    })
    const other = passkeys.find((m: { id: string }) => m.id === stored[1]!.credentialID)
    expect(other.passkey).toMatchObject({ name: "Passkey", lastUsedAt: null, model: null })

    // The user handle the passkeys were registered with, and their ids as the browser has them.
    expect(first.credential!.userHandle).toBe(Buffer.from(user.id).toString("base64url"))
    expect(body.passkeys).toEqual({
      rpId: "localhost",
      userId: first.credential!.userHandle,
      name: "ada@example.com",
      displayName: "ada@example.com",
      allAcceptedCredentialIds: stored.map((a) =>
        Buffer.from(a.credentialID, "base64").toString("base64url"),
      ),
    })
    expect(body.passkeys.allAcceptedCredentialIds).toContain(first.credential!.id)

    // The same for a page's load.
    const request = new Request(`${ORIGIN}/profile`, {
      headers: { cookie: browser.cookieHeader() },
    })
    expect(await getPasskeySignals(request, config)).toEqual(body.passkeys)
    const methods = await listSignInMethods(request, config)
    expect(methods!.filter((m) => m.type === "webauthn")).toEqual(passkeys)
    expect(await getPasskeySignals(new Request(`${ORIGIN}/profile`), config)).toBeNull()
  })
})

describe("renaming", () => {
  it("renames the owner's passkey, trimmed, with no proof asked and no mail", async () => {
    const { adapter, browser, mails, events } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator({ aaguid: ICLOUD }))
    mails.length = 0
    events.accountChanged.mockClear()
    const [passkey] = await passkeysOf(browser)

    // Long after the sign-in: a rename needs no fresh proof.
    vi.useFakeTimers({ now: Date.now() + 3_600_000, toFake: ["Date"] })
    const { location } = await rename(browser, passkey.id, "  Work laptop 💻  ")
    expect(location!.href).toBe(`${ORIGIN}/profile`)
    expect([...adapter.authenticators.values()][0]!.name).toBe("Work laptop 💻")
    expect((await passkeysOf(browser))[0].passkey.name).toBe("Work laptop 💻")
    expect(mails).toHaveLength(0)
    expect(events.accountChanged).not.toHaveBeenCalled()

    // Named by the id the browser knows (base64url) too.
    const browserId = Buffer.from(passkey.id, "base64").toString("base64url")
    await rename(browser, browserId, "Phone")
    expect([...adapter.authenticators.values()][0]!.name).toBe("Phone")
  })

  it("refuses an empty name, one over 64 characters, and control characters", async () => {
    const { adapter, browser } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator())
    const [passkey] = await passkeysOf(browser)
    const refused = [
      "   ",
      "x".repeat(65),
      "line\nbreak",
      "tab\there",
      "\u202Egnp.exe",
      "nul\u0000",
    ]
    for (const name of refused) {
      const { location } = await rename(browser, passkey.id, name)
      expect(location!.searchParams.get("error")).toBe("AccountError")
      expect(location!.searchParams.get("code")).toBe("invalid_name")
    }
    expect([...adapter.authenticators.values()][0]!.name).toBe("Passkey")
    // 64 characters, counted as a reader counts them (an emoji is one).
    const longest = "🔑".repeat(64)
    await rename(browser, passkey.id, longest)
    expect([...adapter.authenticators.values()][0]!.name).toBe(longest)
  })

  it("cannot rename another user's passkey: answered as an unknown id", async () => {
    const { adapter, config, browser } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator())
    const [adas] = await passkeysOf(browser)
    await owner(adapter, "mallory@example.com")
    const mallory = new Browser(config)
    await signIn(mallory, { email: "mallory@example.com" })

    const theirs = await rename(mallory, adas.id, "pwned")
    const unknown = await rename(mallory, "AAAAAAAAAAAAAAAAAAAAAA==", "pwned")
    expect(theirs.location!.searchParams.get("code")).toBe("not_found")
    expect(theirs.location!.href).toBe(unknown.location!.href)
    expect(theirs.response.status).toBe(unknown.response.status)
    expect([...adapter.authenticators.values()][0]!.name).toBe("Passkey")
  })

  it("needs a session and the CSRF token, and is a POST", async () => {
    const { adapter, config, browser } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator())
    const [passkey] = await passkeysOf(browser)

    const signedOut = await rename(new Browser(config), passkey.id, "x")
    expect(signedOut.location!.searchParams.get("code")).toBe("signed_out")
    const forged = await browser.fetch("/auth/passkey/rename", {
      form: { csrfToken: "forged", id: passkey.id, name: "x" },
    })
    expect(forged.headers.get("location") ?? "").not.toBe(`${ORIGIN}/profile`)
    const get = await browser.fetch(`/auth/passkey/rename?id=${passkey.id}&name=x`)
    expect(get.status).toBe(405)
    const unknownAction = await post(browser, "/auth/passkey/delete", { id: passkey.id })
    expect(unknownAction.response.status).toBe(400)
    expect([...adapter.authenticators.values()][0]!.name).toBe("Passkey")
  })
})

describe("removing", () => {
  it("with fresh proof: removed, the owner mailed, the event recorded, and the browser told", async () => {
    const { adapter, config, browser, mails, events } = await adaSignedIn()
    const first = await addPasskey(browser, new SoftAuthenticator())
    await addPasskey(browser, new SoftAuthenticator())
    const [removed, kept] = await passkeysOf(browser)
    const { location } = await post(browser, "/auth/unlink/passkey", {
      id: removed.id,
      callbackUrl: "/profile",
    })
    expect(location!.href).toBe(`${ORIGIN}/profile`)
    expect(adapter.authenticators.has(removed.id)).toBe(false)
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.objectContaining({ email: "ada@example.com" }),
      change: { type: "passkeyRemoved", credentialID: removed.id },
    })
    expect(mails.at(-1)!.subject).toBe("A passkey was removed from your account on localhost:3000")

    const { body } = await account(browser)
    expect(body.passkeys.allAcceptedCredentialIds).toEqual([
      Buffer.from(kept.id, "base64").toString("base64url"),
    ])
    // The removed passkey opens nothing.
    const { answer } = await passkeySignIn(config, first.authenticator!, first.credential!)
    expect(answer.location!.searchParams.get("code")).toBe("unknown-credential")
  })

  it("a stolen session alone removes nothing, and renaming gives it no way in", async () => {
    const { adapter, browser, mails } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator())
    const [passkey] = await passkeysOf(browser)
    mails.length = 0
    const thief = steal(browser)
    const unlink = await post(thief, "/auth/unlink/passkey", { id: passkey.id })
    expect(reauthenticationAsked(unlink.location).code).toBe("required")
    expect(adapter.authenticators.size).toBe(1)
    expect(mails).toHaveLength(0)
  })

  it("never removes the last way in", async () => {
    const { adapter, browser, user } = await adaSignedIn()
    await addPasskey(browser, new SoftAuthenticator())
    // Ada drops her password and her address's email sign-in: the passkey is all she has.
    await post(browser, "/auth/unlink/password", { id: "", callbackUrl: "/profile" })
    await adapter.updateUser!({ id: user.id, emailVerified: null })
    const [passkey] = await passkeysOf(browser)
    expect(passkey.removable).toBe(false)
    const { location } = await post(browser, "/auth/unlink/passkey", { id: passkey.id })
    expect(location!.searchParams.get("code")).toBe("last_method")
    expect(adapter.authenticators.size).toBe(1)
  })
})
