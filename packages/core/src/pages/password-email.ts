/**
 * The mails of password accounts: confirm an address to finish signing up, "you already have an
 * account", a reset link, "no account with this address", "your password was changed". Each has
 * a plain-text and an HTML part that say which site it is about, what happened and what to do
 * if it was not you.
 *
 * The HTML is built as the sign-in mail's (`pages/email.ts`): one table, inline styles, no
 * scripts, no external images, no CSS classes. Every value is escaped.
 */
import type { Theme } from "../types.js"
import { formatExpiry, type SignInEmail } from "./email.js"
import { escapeHtml, html, raw, safeUrl, type SafeHtml } from "./html.js"
import { safeCssColor } from "./layout.js"
import { MAIL_FONT, mailFrame } from "./mail-frame.js"

/** Which password mail to render. */
export type PasswordEmailKind = "verify" | "exists" | "reset" | "no-account" | "changed"

/** What a password mail is built from. */
export interface PasswordEmailInput {
  /**
   * The mail's link: confirm the address (`verify`), choose a new password (`reset`). Not used
   * by `exists`, `no-account` and `changed`.
   */
  url?: string
  /** The sign-in page, offered by `exists`. */
  signInUrl?: string
  /** The site's host, e.g. `example.com`. */
  host: string
  /** When the link stops working. */
  expires?: Date
  theme?: Theme
  /** The sign-up page, offered by `no-account`. */
  signUpUrl?: string
  /** The "forgot your password?" page, offered by `changed` and `exists`. */
  resetUrl?: string
  /** When the password was changed (`changed`), or the sign-up was asked for (`exists`). */
  when?: Date
}

/** A rendered mail. */
export type PasswordEmail = SignInEmail

/** Where the site's host goes in a sentence: bold, its dots broken, in the HTML part. */
export const HOST: unique symbol = Symbol("host")

/** A link in a sentence, or the mail's button. */
export interface Link {
  label: string
  href: string
}

/** A piece of a sentence: text, the host, or a link. */
export type Part = string | typeof HOST | Link

/** What a mail says, before it is rendered as text and as HTML. */
export interface MailContent {
  subject: string
  heading: Part[]
  /** Paragraphs above the button. */
  intro: Part[][]
  /** The button, with a copy of its link below it. */
  button?: Link
  /** Paragraphs below the button. */
  outro?: Part[][]
  /** The small print at the bottom, under a rule. */
  footer: Part[]
}

export function isDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime())
}

export function isUrl(value: unknown): value is string {
  return typeof value === "string" && value !== ""
}

function linkWorks(expires: Date | undefined): string {
  return isDate(expires)
    ? `The link works once, until ${formatExpiry(expires)}.`
    : "The link works once and expires after a while."
}

function content(kind: PasswordEmailKind, input: PasswordEmailInput): MailContent {
  const { host, url, expires, signUpUrl, resetUrl, signInUrl, when } = input
  if ((kind === "verify" || kind === "reset") && !isUrl(url)) {
    throw new TypeError(`The "${kind}" password mail needs its url.`)
  }
  switch (kind) {
    case "verify":
      return {
        subject: `Confirm your address for ${host}`,
        heading: ["Confirm your address for ", HOST],
        intro: [
          [
            "Someone, probably you, asked to create an account on ",
            HOST,
            " with this email address. Select the button to confirm it and finish creating your account.",
          ],
          [linkWorks(expires)],
        ],
        button: { label: "Confirm address", href: url as string },
        footer: ["If it was not you, ignore this email: no account is created without the link."],
      }
    case "exists":
      // Nothing the stranger typed is in it: no link that would set their password.
      return {
        subject: `Someone tried to create an account on ${host} with your address`,
        heading: ["Someone tried to create an account on ", HOST],
        intro: [
          [
            isDate(when)
              ? `Someone asked on ${formatExpiry(when)} to create an account on `
              : "Someone asked to create an account on ",
            HOST,
            " with this email address, which has an account already. Nothing was changed: no account was created, and yours stays as it is.",
          ],
          ["If it was you, sign in as you usually do."],
        ],
        ...(isUrl(signInUrl) ? { button: { label: "Sign in", href: signInUrl } } : {}),
        outro: isUrl(resetUrl)
          ? [["Forgot your password? ", { label: "Reset it", href: resetUrl }]]
          : [],
        footer: ["If it was not you, ignore this email: nobody can use it to change your account."],
      }
    case "reset":
      return {
        subject: `Reset your password on ${host}`,
        heading: ["Reset your password on ", HOST],
        intro: [
          [
            "Someone, probably you, asked to reset the password of your account on ",
            HOST,
            ". Select the button to choose a new one.",
          ],
          [linkWorks(expires)],
        ],
        button: { label: "Choose a new password", href: url as string },
        footer: [
          "If it was not you, ignore this email: your password stays as it is without the link.",
        ],
      }
    case "no-account":
      return {
        subject: `Password reset for ${host}`,
        heading: ["No account on ", HOST],
        intro: [
          [
            isDate(when)
              ? `Someone, probably you, asked on ${formatExpiry(when)} to reset the password for this email address on `
              : "Someone, probably you, asked to reset the password for this email address on ",
            HOST,
            ", but no account uses this address. There is nothing to reset.",
          ],
        ],
        outro: isUrl(signUpUrl)
          ? [["If you meant to create an account, ", { label: "sign up here", href: signUpUrl }]]
          : [],
        footer: ["If it was not you, ignore this email: nothing has changed."],
      }
    case "changed":
      return {
        subject: `Your password on ${host} was changed`,
        heading: ["Your password on ", HOST, " was changed"],
        intro: [
          [
            "The password of your account on ",
            HOST,
            isDate(when) ? ` was changed on ${formatExpiry(when)}.` : " was just changed.",
          ],
          ["If it was you, there is nothing to do."],
          isUrl(resetUrl)
            ? ["If it was not you, select the button to reset your password now."]
            : [
                "If it was not you, reset your password now: choose “Forgot your password?” on the sign-in page of ",
                HOST,
                ".",
              ],
        ],
        ...(isUrl(resetUrl) ? { button: { label: "Reset your password", href: resetUrl } } : {}),
        footer: [
          "You receive this email whenever the password of your account changes, so that you know if someone else changed it.",
        ],
      }
    default:
      throw new TypeError(`Unknown password mail: ${String(kind)}`)
  }
}

function toText(parts: Part[], host: string): string {
  return parts
    .map((part) =>
      part === HOST ? host : typeof part === "string" ? part : `${part.label}:\n${part.href}`,
    )
    .join("")
}

const FONT = MAIL_FONT

function toHtml(parts: Part[], host: string): SafeHtml {
  // Break the host's dots for the visible text: some clients turn "example.com" into a link.
  const shownHost = raw(escapeHtml(host).replace(/\./g, "&#8203;."))
  return html`${parts.map((part) =>
    part === HOST
      ? html`<strong>${shownHost}</strong>`
      : typeof part === "string"
        ? part
        : html`<a href="${safeUrl(part.href)}" target="_blank" style="color: #3f3f46"
            >${part.label}</a
          >`,
  )}`
}

function paragraph(parts: Part[], host: string): SafeHtml {
  return html`<tr>
    <td style="padding: 0 32px 16px; ${FONT}; font-size: 15px; line-height: 1.5; color: #3f3f46">
      ${toHtml(parts, host)}
    </td>
  </tr>`
}

/** Renders a password mail: `{ subject, text, html }`. */
export function renderPasswordEmail(
  kind: PasswordEmailKind,
  input: PasswordEmailInput,
): PasswordEmail {
  return renderMail(content(kind, input), input)
}

/** Renders what a mail says as `{ subject, text, html }`. */
export function renderMail(
  mail: MailContent,
  input: { host: string; theme?: Theme },
): PasswordEmail {
  const host = input.host
  const theme = input.theme ?? {}
  const brand = safeCssColor(theme.brandColor) ?? "#4f46e5"
  const buttonText = safeCssColor(theme.buttonText) ?? "#ffffff"
  // A subject is one header line.
  const subject = mail.subject.replace(/[\r\n]+/g, " ")
  const outro = mail.outro ?? []

  const text = [
    toText(mail.heading, host),
    "",
    ...mail.intro.map((parts) => toText(parts, host)),
    ...(mail.button ? ["", `${mail.button.label}:`, mail.button.href] : []),
    ...(outro.length > 0 ? ["", ...outro.map((parts) => toText(parts, host))] : []),
    "",
    toText(mail.footer, host),
    "",
  ].join("\n")

  const button = mail.button
    ? html`<tr>
          <td align="center" style="padding: 8px 32px 24px">
            <a
              href="${safeUrl(mail.button.href)}"
              target="_blank"
              style="display: inline-block; padding: 12px 24px; border-radius: 8px; background: ${brand}; color: ${buttonText}; ${FONT}; font-size: 16px; font-weight: 600; text-decoration: none"
              >${mail.button.label}</a
            >
          </td>
        </tr>
        <tr>
          <td
            style="padding: 0 32px 24px; ${FONT}; font-size: 13px; line-height: 1.5; color: #52525b; word-break: break-all"
          >
            Or copy this link into your browser:<br />
            <a href="${safeUrl(mail.button.href)}" style="color: #3f3f46">${mail.button.href}</a>
          </td>
        </tr>`
    : ""

  const body = mailFrame({
    subject,
    heading: toHtml(mail.heading, host),
    rows: html`${mail.intro.map((parts) => paragraph(parts, host))} ${button}
    ${outro.map((parts) => paragraph(parts, host))}`,
    footer: toHtml(mail.footer, host),
  })
  return { subject, text, html: body.toString() }
}
