/**
 * Every change to an account's ways in goes through one module (src/account/change.ts): each
 * one tested here mails the owner a notice and emits `accountChanged` with what changed — and a
 * notice that cannot go out never undoes its change. An account whose address was never proven
 * gets no new way in. Through `Auth()`, with a real OpenID Provider for linked accounts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import {
  addPasskey,
  app,
  codeAt,
  enrol,
  FAST,
  linkOP,
  owner,
  PASSWORD,
  post,
  signIn,
  type App,
} from "../helpers/account-security.js"
import { startOP, type OP } from "../helpers/oidc-provider.js"
import { Browser, ORIGIN } from "../helpers/request.js"
import { hashPassword } from "../../src/password/hash.js"

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(async () => {
  await op?.stop()
})

/** The notice mailed last, to Ada. */
function lastNotice({ mails }: App) {
  const mail = mails.at(-1)
  expect(mail?.to).toBe("ada@example.com")
  return mail!
}

describe.each(["database", "jwt"] as const)("changes of an account (%s sessions)", (strategy) => {
  async function signedIn() {
    const context = app({ strategy, op })
    const user = await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    return { ...context, user, browser }
  }

  it("a linked account, added and removed", async () => {
    const context = await signedIn()
    const { browser, adapter, events } = context
    events.signIn.mockClear()
    const linked = await linkOP(browser)
    expect(linked.headers.get("location")).toBe(`${ORIGIN}/profile`)
    expect([...adapter.accounts.values()].map((a) => a.provider)).toEqual(["op"])
    // As Auth.js on a link: `linkAccount`, and `signIn` though the session is the one there was.
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(
      expect.objectContaining({
        user: expect.objectContaining({ email: "ada@example.com" }),
        account: expect.objectContaining({ provider: "op" }),
        isNewUser: false,
      }),
    )
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.objectContaining({ email: "ada@example.com" }),
      change: { type: "accountLinked", provider: "op", providerAccountId: "alice" },
    })
    expect(lastNotice(context).subject).toBe(
      "Your Test OP account was linked to your account on localhost:3000",
    )
    const removed = await post(browser, "/auth/unlink/op", { id: "alice", callbackUrl: "/profile" })
    expect(removed.location!.href).toBe(`${ORIGIN}/profile`)
    expect(adapter.accounts.size).toBe(0)
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "accountUnlinked", provider: "op", providerAccountId: "alice" },
    })
    const notice = lastNotice(context)
    expect(notice.subject).toBe(
      "Your Test OP account was unlinked from your account on localhost:3000",
    )
    expect(notice.text).toContain(`${ORIGIN}/auth/reset-password`)
  })

  it("a passkey removed, then the password removed", async () => {
    const context = await signedIn()
    const { browser, adapter, events, user } = context
    await addPasskey(browser, new SoftAuthenticator())
    const credentialID = [...adapter.authenticators.keys()][0]!
    const second = await addPasskey(browser, new SoftAuthenticator())
    expect(second.answer!.location!.pathname).toBe("/profile")
    await post(browser, "/auth/unlink/passkey", { id: credentialID, callbackUrl: "/profile" })
    expect(adapter.authenticators.has(credentialID)).toBe(false)
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "passkeyRemoved", credentialID },
    })
    expect(lastNotice(context).subject).toBe(
      "A passkey was removed from your account on localhost:3000",
    )
    await post(browser, "/auth/unlink/password", { id: "", callbackUrl: "/profile" })
    expect(adapter.passwords.has(user.id)).toBe(false)
    expect(lastNotice(context).subject).toBe("Your password was removed on localhost:3000")
  })

  it("the password changed (never to itself) and reset", async () => {
    const context = await signedIn()
    const { browser, events, mails } = context
    const same = await post(browser, "/auth/change-password/password", {
      currentPassword: PASSWORD,
      password: PASSWORD,
      callbackUrl: "/profile",
    })
    expect(same.location!.searchParams.get("code")).toBe("same_password")
    expect(mails).toHaveLength(0)
    await post(browser, "/auth/change-password/password", {
      currentPassword: PASSWORD,
      password: "a brand new password",
      callbackUrl: "/profile",
    })
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "passwordChanged" },
    })
    expect(lastNotice(context).subject).toBe("Your password on localhost:3000 was changed")

    await post(new Browser(context.config), "/auth/reset-password/password", {
      email: "ada@example.com",
    })
    const link = new URL(mails.at(-1)!.link!)
    await post(new Browser(context.config), "/auth/new-password/password", {
      token: link.searchParams.get("token")!,
      password: "yet another password",
    })
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "passwordReset" },
    })
    expect(lastNotice(context).subject).toBe("Your password on localhost:3000 was changed")
  })

  it("two-factor authentication turned on, replaced, new codes, turned off", async () => {
    const context = await signedIn()
    const { browser, events } = context
    const { secret } = await enrol(browser)
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "twoFactorEnabled" },
    })
    expect(lastNotice(context).subject).toBe(
      "Two-factor authentication was turned on on localhost:3000",
    )
    await post(browser, "/auth/two-factor/recovery-codes", { code: await codeAt(secret, 1) })
    expect(lastNotice(context).subject).toBe("New recovery codes were made on localhost:3000")

    const page = await (await browser.fetch("/auth/two-factor/setup")).text()
    const setup = /name="setup" value="([^"]+)"/.exec(page)![1]!
    const next = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, "")
    await post(browser, "/auth/two-factor/setup", {
      setup,
      code: await codeAt(next, 0),
      currentCode: await codeAt(secret, 0),
    })
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.anything(),
      change: { type: "twoFactorReplaced" },
    })
    expect(lastNotice(context).subject).toBe(
      "Your two-factor authenticator was replaced on localhost:3000",
    )
    await post(browser, "/auth/two-factor/disable", { code: await codeAt(next, -1) })
    expect(lastNotice(context).subject).toBe(
      "Two-factor authentication was turned off on localhost:3000",
    )
    expect(context.adapter.twoFactors.size).toBe(0)
  })

  it("a notice that cannot go out leaves the change made, and is logged", async () => {
    const context = app({
      strategy,
      password: {
        sendMail: () => {
          throw new Error("the mail server is down")
        },
      },
    })
    await owner(context.adapter)
    const browser = new Browser(context.config)
    await signIn(browser)
    const added = await addPasskey(browser)
    expect(added.answer!.location!.href).toBe(`${ORIGIN}/profile`)
    expect(context.adapter.authenticators.size).toBe(1)
    const logged = vi.mocked(context.config.logger!.error!).mock.calls
    expect(String(logged.at(-1)![0].message)).toContain('"passkeyAdded" notice')
  })

  it("an account linked by email (allowDangerousEmailAccountLinking) is told to its owner", async () => {
    const context = app({ strategy, op })
    const { adapter, config, events } = context
    // The OP's alice has ada's address.
    const alice = await owner(adapter, "alice@example.com")
    const linking = {
      ...config,
      providers: config.providers.map((provider) =>
        typeof provider === "object" && "id" in provider && provider.id === "op"
          ? { ...provider, allowDangerousEmailAccountLinking: true }
          : provider,
      ),
    }
    await linkOP(new Browser(linking))
    expect(adapter.accounts.size).toBe(1)
    expect(events.accountChanged).toHaveBeenLastCalledWith({
      user: expect.objectContaining({ id: alice.id }),
      change: { type: "accountLinked", provider: "op", providerAccountId: "alice" },
    })
    expect(context.mails.at(-1)!.to).toBe("alice@example.com")
  })

  it("an unproven account gets no new way in", async () => {
    // Signed in as an account whose address was never proven (requireEmailVerification: false).
    const context = app({ strategy, op, password: { requireEmailVerification: false } })
    const user = await context.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "ada@example.com",
      emailVerified: null,
    })
    context.adapter.passwords.set(user.id, await hashPassword(PASSWORD, FAST))
    const squatter = new Browser(context.config)
    await signIn(squatter)
    expect((await squatter.session())?.user?.email).toBe("ada@example.com")
    const passkey = await addPasskey(squatter)
    expect(passkey.answer!.location!.searchParams.get("code")).toBe("unverified")
    expect(context.adapter.authenticators.size).toBe(0)
    const linked = await linkOP(squatter)
    expect(new URL(linked.headers.get("location")!).searchParams.get("code")).toBe("unverified")
    expect(context.adapter.accounts.size).toBe(0)
    expect(context.events.accountChanged).not.toHaveBeenCalled()
  })
})
