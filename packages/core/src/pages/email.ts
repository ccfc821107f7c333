/**
 * The default sign-in mail: a plain-text part and an HTML part that say which site the link is
 * for, carry the link (and, with the provider's `code` on, a short code to type in the browser
 * that asked), and tell the reader what to do if they did not ask for it.
 *
 * The HTML is what mail clients render well: one table, inline styles, no scripts, no external
 * images, no CSS classes (many clients drop `<style>`). Every value is escaped.
 */
import type { Theme } from "../types.js"
import { escapeHtml, html, raw } from "./html.js"
import { MAIL_FONT, mailFrame } from "./mail-frame.js"
import { safeCssColor } from "./layout.js"

/** What the mail is built from. */
export interface SignInEmailInput {
  /** The sign-in link. */
  url: string
  /** The site's host, e.g. `example.com`. */
  host: string
  expires: Date
  theme?: Theme
  /** A code to type instead of following the link, in the browser that asked. */
  code?: string
  /** When the code stops working. */
  codeExpires?: Date
}

/** A rendered mail. */
export interface SignInEmail {
  subject: string
  text: string
  html: string
}

/** The expiry as people read it, in UTC: "22 November 2026, 14:05 UTC". */
export function formatExpiry(expires: Date): string {
  const date = expires.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  })
  const time = expires.toLocaleTimeString("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  })
  return `${date}, ${time} UTC`
}

/** Renders the sign-in mail. */
export function renderSignInEmail({
  url,
  host,
  expires,
  theme = {},
  code,
  codeExpires,
}: SignInEmailInput): SignInEmail {
  const brand = safeCssColor(theme.brandColor) ?? "#4f46e5"
  const buttonText = safeCssColor(theme.buttonText) ?? "#ffffff"
  const until = formatExpiry(expires)
  // Break the host's dots for the visible text: some clients turn "example.com" into a link.
  const shownHost = escapeHtml(host).replace(/\./g, "&#8203;.")
  const subject = `Sign in to ${host}`
  const hasCode = typeof code === "string" && code !== ""
  const codeUntil = hasCode ? formatExpiry(codeExpires ?? expires) : ""
  const codeLines = hasCode
    ? [
        "",
        "Or, on the device where you asked to sign in, enter this code:",
        code,
        `It works once, in that browser only, until ${codeUntil}.`,
      ]
    : []
  const text = [
    `Sign in to ${host}`,
    "",
    "Open this link to sign in:",
    url,
    ...codeLines,
    "",
    `The link works once, on any device, until ${until}.`,
    `If you did not ask to sign in, ignore this email: nobody can sign in without ${hasCode ? "the link or the code" : "the link"}.`,
    "",
  ].join("\n")
  const body = mailFrame({
    subject,
    heading: html`Sign in to <strong>${raw(shownHost)}</strong>`,
    rows: html`<tr>
        <td
          style="padding: 8px 32px 24px; ${MAIL_FONT}; font-size: 15px; line-height: 1.5; color: #3f3f46"
        >
          Select the button to finish signing in. The link works once, until ${until}.
        </td>
      </tr>
      <tr>
        <td align="center" style="padding: 0 32px 24px">
          <a
            href="${url}"
            target="_blank"
            style="display: inline-block; padding: 12px 24px; border-radius: 8px; background: ${brand}; color: ${buttonText}; ${MAIL_FONT}; font-size: 16px; font-weight: 600; text-decoration: none"
            >Sign in</a
          >
        </td>
      </tr>
      <tr>
        <td
          style="padding: 0 32px 24px; ${MAIL_FONT}; font-size: 13px; line-height: 1.5; color: #52525b; word-break: break-all"
        >
          Or copy this link into your browser:<br />
          <a href="${url}" style="color: #3f3f46">${url}</a>
        </td>
      </tr>
      ${
        hasCode
          ? html`<tr>
              <td
                style="padding: 0 32px 24px; ${MAIL_FONT}; font-size: 15px; line-height: 1.5; color: #3f3f46"
              >
                Or, on the device where you asked to sign in, enter this code:
                <div
                  style="margin: 12px 0 8px; padding: 12px; border-radius: 8px; background: #f4f4f5; text-align: center; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 28px; font-weight: 700; letter-spacing: 0.2em; color: #18181b"
                >
                  ${code}
                </div>
                <span style="font-size: 13px; color: #52525b"
                  >It works once, in that browser only, until ${codeUntil}.</span
                >
              </td>
            </tr>`
          : ""
      }`,
    footer: `If you did not ask to sign in, ignore this email: nobody can sign in without ${hasCode ? "the link or the code" : "the link"}.`,
  })
  return { subject, text, html: body.toString() }
}
