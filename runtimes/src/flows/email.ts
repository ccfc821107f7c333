/**
 * An email link: the mailed URL, its Continue page, the button, a session. The provider is an
 * email provider object of the app's own, as on Workers and the edge: `Email` and `Nodemailer`
 * send over SMTP and name the `nodemailer` package, which a Worker's bundle cannot load.
 */
import type { EmailConfig } from "@latch/core/providers/email"
import { Browser, check, expectRedirect, followLink } from "../browser.js"
import { baseConfig, withUser } from "./config.js"

export async function emailLink(): Promise<string> {
  const email = "dave@example.com"
  const { adapter } = await withUser(email)
  const links: string[] = []
  const browser = new Browser(
    baseConfig({
      adapter,
      providers: [
        {
          id: "email",
          type: "email",
          name: "Email",
          sendVerificationRequest: ({ url }) => void links.push(url),
        } as EmailConfig,
      ],
    }),
  )
  expectRedirect(
    await browser.post("/auth/signin/email", { email, callbackUrl: "/inbox" }),
    "/auth/verify-request",
  )
  check(links.length === 1, `${links.length} links sent, not 1`)
  expectRedirect(await followLink(browser, links[0]!), "/inbox")
  check((await browser.session())?.user?.email === email, "the link made no session")
  check(adapter.tokens.size === 0, "the link's token was not spent")
  return "link → Continue page → session"
}
