/**
 * `Password` with its default hash: a sign-up, the mailed link through its Continue page (which
 * creates the account and signs in), then a sign-in with the password from a fresh browser.
 */
import Password, { type PasswordMail } from "@latch/core/providers/password"
import { Browser, check, expectRedirect, followLink } from "../browser.js"
import { baseConfig, memoryAdapter, PASSWORD } from "./config.js"

export async function password(): Promise<string> {
  const adapter = memoryAdapter()
  const mails: PasswordMail[] = []
  const config = baseConfig({
    adapter,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
  })
  const email = "carol@example.com"
  const browser = new Browser(config)
  expectRedirect(
    await browser.post("/auth/signup/password", {
      email,
      password: PASSWORD,
      name: "Carol",
      callbackUrl: "/welcome",
    }),
    "/auth/verify-request",
  )
  check(mails.length === 1 && mails[0]!.to === email, `${mails.length} mails sent, not 1`)
  const link = /https?:\/\/\S+/.exec(mails[0]!.text)?.[0]
  check(link, "the mail has no link")
  expectRedirect(await followLink(browser, link), "/welcome")
  const user = await adapter.getUserByEmail!(email)
  check(user && adapter.passwords.has(user.id), "the account or its hash was not stored")
  check((await browser.session())?.user?.email === email, "not signed in after the link")

  const again = new Browser(config)
  expectRedirect(
    await again.post("/auth/callback/password", {
      email,
      password: PASSWORD,
      callbackUrl: "/home",
    }),
    "/home",
  )
  check((await again.session())?.user?.email === email, "the password sign-in made no session")
  return `hash ${adapter.passwords.get(user.id)!.split("$").slice(0, 3).join("$")}…`
}
