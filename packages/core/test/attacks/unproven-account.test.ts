/**
 * Attack: someone who knows only the victim's address.
 *
 * 1. A stranger's sign-up with the address of an existing account: were the owner's "you already
 *    have an account" mail to carry a link that sets the stranger's chosen password, one click
 *    of the owner (zero with a mail scanner and `continuePage: false`) would hand the stranger
 *    the account.
 * 2. A stranger's sign-up with the address of someone who has no account yet: were the owner (or
 *    their scanner) to follow the confirming link, an account with the stranger's password would
 *    exist under the owner's proven address — the stranger's way in, ever after.
 * 3. An address squatter (`requireEmailVerification: false`) signs up with the victim's address,
 *    is signed in at once, and sets things up: a second factor (which would lock the owner out
 *    later), a session. When the owner proves the address — by an email link, by the confirming
 *    link of the sign-up mail, by a reset link — the squatter must be left with nothing.
 *
 * Safe outcome, with either session strategy: nothing a stranger typed reaches the owner's
 * account; an unproven account adds no factor; whoever proves the address adopts it clean.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { newRecoveryCodes, storeSecret } from "../../src/flows/two-factor/store.js"
import { newTotpSecret } from "../../src/flows/two-factor/totp.js"
import {
  app,
  codeAt,
  owner,
  PASSWORD,
  post,
  signIn,
  type App,
} from "../helpers/account-security.js"
import { followLink, formOf } from "../helpers/continue-page.js"
import { SoftAuthenticator } from "../helpers/authenticator.js"
import { Browser, ORIGIN } from "../helpers/request.js"

const VICTIM = "victim@example.com"
const SQUATTER_PASSWORD = "the squatter's password"

const pathOf = (link: string) => {
  const url = new URL(link)
  return `${url.pathname}${url.search}`
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("a stranger's sign-up sets nothing on an existing account, and its mail offers nothing to follow", async () => {
    for (const continuePage of [true, false]) {
      const { adapter, config, mails } = app({ strategy, password: { continuePage } })
      const victim = await owner(adapter, VICTIM)
      const stranger = new Browser(config)
      const { location } = await post(stranger, "/auth/signup/password", {
        email: VICTIM,
        password: SQUATTER_PASSWORD,
      })
      expect(location!.pathname).toBe("/auth/verify-request")
      const mail = mails.at(-1)!
      expect(mail.to).toBe(VICTIM)
      expect(mail.subject).toMatch(/tried to create an account/)
      // The only links: sign in, reset the password. Following each changes nothing.
      const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0])
      expect(links.sort()).toEqual([`${ORIGIN}/auth/reset-password`, `${ORIGIN}/auth/signin`])
      for (const link of links) await new Browser(config).fetch(pathOf(link))
      expect((await signIn(new Browser(config), { email: VICTIM })).location!.pathname).toBe(
        "/home",
      )
      const tried = await signIn(new Browser(config), {
        email: VICTIM,
        password: SQUATTER_PASSWORD,
      })
      expect(tried.location!.searchParams.get("code")).toBe("credentials")
      expect((await adapter.getUserByEmail!(VICTIM))!.id).toBe(victim.id)
    }
  })

  it("a stranger's sign-up for a free address creates nothing when the owner or a scanner follows its link", async () => {
    for (const continuePage of [true, false]) {
      const { adapter, config, mails } = app({ strategy, password: { continuePage } })
      const stranger = new Browser(config)
      await post(stranger, "/auth/signup/password", {
        email: VICTIM,
        password: SQUATTER_PASSWORD,
      })
      const link = pathOf(mails.at(-1)!.link!)
      // The owner's scanner opens the link; the owner presses the button without the password.
      const scanner = new Browser(config)
      const opened = await scanner.fetch(link)
      expect(opened.status).toBe(200)
      const { action, fields } = formOf(await opened.text())
      const pressed = await scanner.fetch(action, { form: fields })
      expect(new URL(pressed.headers.get("location")!).searchParams.get("code")).toBe(
        "password_required",
      )
      expect(await adapter.getUserByEmail!(VICTIM)).toBeNull()
      expect(await scanner.session()).toBeNull()
      // Guessing the stranger's password there is limited, and the link then dies.
      for (let i = 0; i < 5; i++) await followLink(scanner, link, { password: `guess ${i}` })
      const limited = await followLink(scanner, link, { password: SQUATTER_PASSWORD })
      expect(new URL(limited.headers.get("location")!).searchParams.get("code")).toBe(
        "rate_limited",
      )
      expect(await adapter.getUserByEmail!(VICTIM)).toBeNull()
    }
  })

  it("knowing only the address changes no way in: every account action asks for a session", async () => {
    const { adapter, config, mails, events } = app({ strategy })
    const victim = await owner(adapter, VICTIM)
    const stranger = new Browser(config)
    const posts: [string, Record<string, string>][] = [
      ["/auth/unlink/password", { id: "", email: VICTIM }],
      [
        "/auth/change-password/password",
        { currentPassword: "guess", password: SQUATTER_PASSWORD, email: VICTIM },
      ],
      ["/auth/two-factor/setup", { setup: "x", code: "123456", email: VICTIM }],
      ["/auth/two-factor/disable", { code: "123456", email: VICTIM }],
      ["/auth/two-factor/recovery-codes", { code: "123456", email: VICTIM }],
      ["/auth/reauthenticate", { method: "email", send: "1", email: VICTIM }],
    ]
    for (const [path, form] of posts) {
      const { response, location } = await post(stranger, path, form)
      expect(response.status, path).toBeLessThan(500)
      expect(location?.searchParams.get("code"), path).toBe("signed_out")
    }
    const options = await stranger.fetch("/auth/webauthn-options/passkey?action=register")
    expect(options.status).toBe(403)
    expect(adapter.passwords.has(victim.id)).toBe(true)
    expect(adapter.twoFactors.size + adapter.authenticators.size).toBe(0)
    expect(mails).toHaveLength(0)
    expect(events.accountChanged).not.toHaveBeenCalled()
  })

  describe("an address squatter (requireEmailVerification: false)", () => {
    /** The squatter signs up with the victim's address, and is signed in at once. */
    async function squat(): Promise<App & { squatter: Browser; confirmLink: string }> {
      const context = app({ strategy, password: { requireEmailVerification: false } })
      const squatter = new Browser(context.config)
      const { location } = await post(squatter, "/auth/signup/password", {
        email: VICTIM,
        password: SQUATTER_PASSWORD,
        callbackUrl: "/home",
      })
      expect(location!.href).toBe(`${ORIGIN}/home`)
      expect((await squatter.session())?.user?.email).toBe(VICTIM)
      const confirmLink = pathOf(context.mails.at(-1)!.link!)
      return { ...context, squatter, confirmLink }
    }

    it("may not turn two-factor authentication on", async () => {
      const { adapter, squatter } = await squat()
      const page = await squatter.fetch("/auth/two-factor/setup")
      const html = await page.text()
      const setup = /name="setup" value="([^"]+)"/.exec(html)![1]!
      const secret = /Key: <code>([A-Z2-7 ]+)<\/code>/.exec(html)![1]!.replace(/ /g, "")
      const { location } = await post(squatter, "/auth/two-factor/setup", {
        setup,
        code: await codeAt(secret),
      })
      expect(location!.searchParams.get("error")).toBe("TwoFactorError")
      expect(location!.searchParams.get("code")).toBe("unverified")
      expect(adapter.twoFactors.size).toBe(0)
    })

    it("may not add a security key as the second factor", async () => {
      const { adapter, squatter, mails } = await squat()
      const mailsBefore = mails.length
      // The options are given (the sign-up is fresh proof); the registration is refused.
      const options = await squatter.fetch("/auth/two-factor/security-key-setup")
      expect(options.status).toBe(200)
      const { options: creation } = (await options.json()) as { options: any }
      const { response } = new SoftAuthenticator().create(
        {
          challenge: creation.challenge,
          origin: ORIGIN,
          rpId: "localhost",
          flags: { userVerified: false },
        },
        creation.user.id,
      )
      const { location: refusal } = await post(squatter, "/auth/two-factor/security-key-setup", {
        data: JSON.stringify(response),
      })
      expect(refusal!.searchParams.get("code")).toBe("unverified")
      expect(adapter.authenticators.size).toBe(0)
      expect(adapter.recoveryCodes.size).toBe(0)
      expect(mails.slice(mailsBefore).map((mail) => mail.subject)).not.toContainEqual(
        expect.stringMatching(/security key/i),
      )
    })

    it("the owner who proves the address removes a squatter's security key and its recovery codes", async () => {
      const context = await squat()
      const { adapter, config, squatter, emailLinks } = context
      // What a squatter could leave before unproven accounts were refused a key.
      const user = (await adapter.getUserByEmail!(VICTIM))!
      await adapter.createAuthenticator!({
        credentialID: "squatters-key",
        userId: user.id,
        providerAccountId: "squatters-key",
        credentialPublicKey: "AAAA",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        secondFactor: true,
      })
      await newRecoveryCodes({ config: resolveConfig(config) }, user.id)
      const victim = new Browser(config)
      await post(victim, "/auth/signin/email", { email: VICTIM, callbackUrl: "/home" })
      const answer = await followLink(victim, emailLinks.at(-1)!)
      // Signed in, no second factor asked: the squatter's key is gone, with its codes.
      expect(answer.headers.get("location")).toBe(`${ORIGIN}/home`)
      expect((await victim.session())?.user?.email).toBe(VICTIM)
      expect(adapter.authenticators.size).toBe(0)
      expect(adapter.recoveryCodes.get(user.id)?.size ?? 0).toBe(0)
      expect(await squatter.session()).toBeNull()
      expect(context.events.accountChanged).toHaveBeenCalledWith({
        user: expect.objectContaining({ id: user.id }),
        change: { type: "addressProven", removed: expect.arrayContaining(["passkeys"]) },
      })
    })

    /**
     * What a squatter could leave before unproven accounts were refused a factor: a second
     * factor of theirs, with recovery codes (stored as the setup stores them).
     */
    async function withSquattersFactor(context: Awaited<ReturnType<typeof squat>>) {
      const user = (await context.adapter.getUserByEmail!(VICTIM))!
      const ctx = { config: resolveConfig(context.config) }
      await storeSecret(ctx, user.id, newTotpSecret())
      await newRecoveryCodes(ctx, user.id)
      expect(context.adapter.twoFactors.size).toBe(1)
      expect(context.adapter.recoveryCodes.get(user.id)?.size).toBe(10)
      return { user }
    }

    it.each(["email link", "confirming link", "reset link"] as const)(
      "the owner who proves the address by %s adopts the account clean",
      async (proof) => {
        const context = await squat()
        const { adapter, config, squatter, emailLinks, mails } = context
        const { user } = await withSquattersFactor(context)
        const victim = new Browser(config)
        if (proof === "email link") {
          await post(victim, "/auth/signin/email", { email: VICTIM, callbackUrl: "/home" })
          const answer = await followLink(victim, emailLinks.at(-1)!)
          expect(answer.headers.get("location")).toBe(`${ORIGIN}/home`)
        } else if (proof === "confirming link") {
          // Not knowing the squatter's password, the owner takes the account over.
          const opened = await victim.fetch(context.confirmLink)
          const html = await opened.text()
          expect(html).toContain("Take the account over")
          const forms = [
            ...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g),
          ]
          const takeOver = forms.find((form) => form[2]!.includes('name="adopt"'))!
          const fields = formOf(takeOver[0]).fields
          const answer = await victim.fetch(takeOver[1]!.replace(/&amp;/g, "&"), {
            form: fields,
          })
          expect(answer.headers.get("location")).toBe(`${ORIGIN}/home`)
        } else {
          await post(victim, "/auth/reset-password/password", {
            email: VICTIM,
            callbackUrl: "/home",
          })
          const link = pathOf(mails.at(-1)!.link!)
          const opened = await victim.fetch(link)
          const token = new URL(link, ORIGIN).searchParams.get("token")!
          expect(opened.status).toBe(200)
          const answer = await post(victim, "/auth/new-password/password", {
            token,
            password: "the owner's new password",
          })
          expect(answer.location!.href).toBe(`${ORIGIN}/home`)
        }
        // The owner is signed in — no code asked: the squatter's factor is gone.
        expect((await victim.session())?.user?.email).toBe(VICTIM)
        expect(adapter.twoFactors.size).toBe(0)
        expect(adapter.recoveryCodes.get(user.id)?.size ?? 0).toBe(0)
        expect((await adapter.getUser!(user.id))!.emailVerified).toBeInstanceOf(Date)
        // The squatter's session ends (a JWT one too) and their password opens nothing.
        expect(await squatter.session()).toBeNull()
        const retry = await signIn(new Browser(config), {
          email: VICTIM,
          password: SQUATTER_PASSWORD,
        })
        expect(retry.location!.searchParams.get("code")).toBe("credentials")
        expect(context.events.accountChanged).toHaveBeenCalledWith({
          user: expect.objectContaining({ id: user.id }),
          change: {
            type: "addressProven",
            removed: expect.arrayContaining(["sessions", "twoFactor"]),
          },
        })
      },
    )

    it("its creator, confirming on another device with the password, keeps the account as it is", async () => {
      const context = await squat()
      const { adapter, config, squatter, confirmLink } = context
      const answer = await followLink(new Browser(config), confirmLink, {
        password: SQUATTER_PASSWORD,
      })
      expect(answer.headers.get("location")).toBe(`${ORIGIN}/home`)
      const user = (await adapter.getUserByEmail!(VICTIM))!
      expect(user.emailVerified).toBeInstanceOf(Date)
      // Same party: the session and the password stay.
      expect((await squatter.session())?.user?.email).toBe(VICTIM)
      expect(
        (await signIn(new Browser(config), { email: VICTIM, password: SQUATTER_PASSWORD }))
          .location!.pathname,
      ).toBe("/home")
    })

    it("a wrong password on the confirming page adopts nothing and spends nothing", async () => {
      const { adapter, config, squatter, confirmLink } = await squat()
      const browser = new Browser(config)
      const answer = await followLink(browser, confirmLink, { password: PASSWORD })
      expect(new URL(answer.headers.get("location")!).searchParams.get("code")).toBe(
        "wrong_password",
      )
      expect((await adapter.getUserByEmail!(VICTIM))!.emailVerified).toBeNull()
      expect((await squatter.session())?.user?.email).toBe(VICTIM)
      // The link still works, with the right password.
      await followLink(browser, confirmLink, { password: SQUATTER_PASSWORD })
      expect((await adapter.getUserByEmail!(VICTIM))!.emailVerified).toBeInstanceOf(Date)
    })
  })
})
