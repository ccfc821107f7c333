/**
 * The mails of account changes: the notice the owner gets for each change to the account's ways
 * in ("A passkey was added to your account…"), with what to do if it was not them; and the code
 * the re-authentication step mails. Rendered as the password mails are (`password-email.ts`).
 */
import type { AccountChange, Theme } from "../types.js"
import { formatExpiry } from "./email.js"
import {
  HOST,
  isDate,
  isUrl,
  renderMail,
  type MailContent,
  type Part,
  type PasswordEmail,
} from "./password-email.js"

/** What a notice is built from. */
export interface AccountNoticeInput {
  host: string
  theme?: Theme
  change: AccountChange
  /** When the change was made. */
  when: Date
  /** The browser and system it was made from ("Firefox on Linux"), when known. */
  device?: string | null
  /** The name of the provider of a linked or unlinked account, or of the passkey's kind. */
  providerName?: string
  /** Where the owner secures the account: the "forgot your password?" page, else signing in. */
  secureUrl?: string
  /** Whether `secureUrl` resets the password (else it signs in). */
  secureByReset?: boolean
}

/** What an adoption removed, in words (`addressProven`'s `removed`). */
const REMOVED: Record<string, string> = {
  sessions: "the open sessions",
  password: "the password",
  twoFactor: "two-factor authentication",
  passkeys: "the passkeys",
  accounts: "the linked accounts",
}

/** What happened, as the subject and the first sentence say it. */
function whatHappened(change: AccountChange, providerName: string | undefined): string {
  const provider = providerName ?? ("provider" in change ? change.provider : "another site")
  switch (change.type) {
    case "passwordChanged":
    case "passwordReset":
      return "Your password was changed"
    case "passwordRemoved":
      return "Your password was removed"
    case "passkeyAdded":
      return "A passkey was added to your account"
    case "passkeyRemoved":
      return "A passkey was removed from your account"
    case "accountLinked":
      return `Your ${provider} account was linked to your account`
    case "accountUnlinked":
      return `Your ${provider} account was unlinked from your account`
    case "twoFactorEnabled":
      return "Two-factor authentication was turned on"
    case "twoFactorReplaced":
      return "Your two-factor authenticator was replaced"
    case "twoFactorDisabled":
      return "Two-factor authentication was turned off"
    case "recoveryCodesRegenerated":
      return "New recovery codes were made"
    case "securityKeyAdded":
      return "A security key was added as your second factor"
    case "securityKeyRemoved":
      return "A security key was removed from your second factors"
    case "addressProven":
      return "Your address was confirmed"
  }
}

/** Renders the notice of a change: `{ subject, text, html }`. */
export function renderAccountNotice(input: AccountNoticeInput): PasswordEmail {
  const { host, change, when, device, secureUrl } = input
  const what = whatHappened(change, input.providerName)
  const since = [
    `${what} on `,
    HOST,
    isDate(when) ? ` on ${formatExpiry(when)}` : "",
    device ? `, from ${device}.` : ".",
  ] satisfies Part[]
  const ifNot: Part[] = isUrl(secureUrl)
    ? input.secureByReset
      ? [
          "If it was not you, someone may be in your account: reset your password now, then review your sign-in methods.",
        ]
      : [
          "If it was not you, someone may be in your account: sign in now and review your sign-in methods.",
        ]
    : [
        "If it was not you, someone may be in your account: sign in now and review your sign-in methods.",
      ]
  const removedNote: Part[][] =
    change.type === "addressProven" && change.removed.length > 0
      ? [
          [
            "Someone had used this address before it was confirmed. What they had set up is removed: ",
            change.removed.map((item) => REMOVED[item] ?? item).join(", "),
            ". Set a password (“Forgot your password?”) if you want one.",
          ],
        ]
      : []
  const mail: MailContent = {
    subject: `${what} on ${host}`,
    heading: [what],
    intro: [since, ...removedNote, ["If it was you, there is nothing to do."], ifNot],
    ...(isUrl(secureUrl)
      ? {
          button: {
            label: input.secureByReset ? "Reset your password" : "Sign in",
            href: secureUrl,
          },
        }
      : {}),
    footer: [
      "You receive this email whenever the ways to sign in to your account change, so that you know if someone else changed them.",
    ],
  }
  return renderMail(mail, input)
}

/** What the re-authentication code mail is built from. */
export interface ReauthenticationCodeInput {
  host: string
  theme?: Theme
  code: string
  expires: Date
}

/** Renders the mail with a re-authentication code. */
export function renderReauthenticationCode(input: ReauthenticationCodeInput): PasswordEmail {
  const mail: MailContent = {
    subject: `Your code to confirm it is you on ${input.host}: ${input.code}`,
    heading: ["Confirm it is you on ", HOST],
    intro: [
      [
        "Someone signed in to your account on ",
        HOST,
        " asked to confirm it is you before changing how you sign in. Your code is:",
      ],
      [input.code],
      [`It works once, until ${formatExpiry(input.expires)}.`],
    ],
    footer: [
      "If it was not you, do not give this code to anyone: someone may be signed in as you. Sign in and sign out everywhere, and change your password if you have one.",
    ],
  }
  return renderMail(mail, input)
}
