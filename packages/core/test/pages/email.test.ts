import { describe, expect, it } from "vitest"
import { renderSignInEmail } from "../../src/providers/nodemailer.js"
import { Browser, testConfig } from "../helpers/request.js"

describe("the sign-in mail", () => {
  const expires = new Date("2026-11-22T14:05:00Z")

  it("has the host in the subject, the link and the expiry in both parts", () => {
    const url = "https://example.com/auth/callback/nodemailer?token=abc&email=a%40b.example"
    const mail = renderSignInEmail({ url, host: "example.com", expires })
    expect(mail.subject).toBe("Sign in to example.com")
    expect(mail.text).toContain(url)
    expect(mail.text).toContain("22 November 2026, 14:05 UTC")
    expect(mail.html).toContain("22 November 2026, 14:05 UTC")
    expect(mail.html).toContain("token&#61;abc&amp;email&#61;a%40b.example")
    // The visible host is broken at its dots, so clients do not turn it into a link.
    expect(mail.html).toContain("example&#8203;.com")
  })

  it("escapes every value and refuses unsafe theme colours", () => {
    const mail = renderSignInEmail({
      url: 'https://example.com/?x="><script>alert(1)</script>',
      host: "<img src=x onerror=alert(1)>",
      expires,
      theme: { brandColor: "red; background: url(https://evil.example)", buttonText: "#fff" },
    })
    expect(mail.html).not.toMatch(/<script|<img/i)
    expect(mail.html).toContain("&lt;img src&#61;x onerror&#61;alert(1)&gt;")
    expect(mail.html).not.toContain("evil.example")
    expect(mail.html).toContain("background: #4f46e5")
    expect(mail.html).toContain("color: #fff")
  })

  it("uses the theme's brand colour for the button", () => {
    const mail = renderSignInEmail({
      url: "https://example.com/",
      host: "example.com",
      expires,
      theme: { brandColor: "#0a7" },
    })
    expect(mail.html).toContain("background: #0a7")
  })
})

describe("the verify-request page", () => {
  it("shows the mail's host, and ignores a host that is not a domain name", async () => {
    const browser = new Browser(testConfig())
    const shown = await (
      await browser.fetch("/auth/verify-request?provider=nodemailer&type=email&host=example.org")
    ).text()
    expect(shown).toContain("<strong>example.org</strong>")
    const injected = await (
      await browser.fetch("/auth/verify-request?host=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    ).text()
    expect(injected).not.toMatch(/<script>alert/)
    expect(injected).not.toContain("<strong>")
  })

  it("passes provider, type and host on to a custom page", async () => {
    const browser = new Browser(testConfig({ pages: { verifyRequest: "/check-mail" } }))
    const response = await browser.fetch(
      "/auth/verify-request?provider=p&type=email&host=a.example",
    )
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/check-mail?provider=p&type=email&host=a.example",
    )
  })
})
