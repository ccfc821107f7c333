/**
 * The mails of passkey-first sign-up: the code that proves the address, or — for an address
 * that has an account — a mail saying so, with the way to sign in instead. Both are rendered as
 * the password mails are (`password-email.ts`); the page that asked shows the same either way.
 */
import type { Theme } from "../types.js"
import { formatExpiry } from "./email.js"
import { HOST, renderMail, type MailContent, type PasswordEmail } from "./password-email.js"

/** What a passkey sign-up mail is built from. */
export interface PasskeySignUpMailInput {
  host: string
  theme?: Theme
  /** The sign-in page, offered to an address that has an account. */
  signInUrl: string
}

/** The code that proves the address, for a new account. */
export function renderPasskeySignUpCode(
  input: PasskeySignUpMailInput & { code: string; expires: Date },
): PasswordEmail {
  const mail: MailContent = {
    subject: `Your code to create an account on ${input.host}: ${input.code}`,
    heading: ["Create your account on ", HOST],
    intro: [
      [
        "Someone asked to create an account on ",
        HOST,
        " with this email address, signing in with a passkey. Type this code on the page that asked:",
      ],
      [input.code],
      [
        `It works once, in the browser that asked, until ${formatExpiry(input.expires)}. Then your device makes a passkey for the account.`,
      ],
    ],
    footer: ["If it was not you, ignore this email: no account is created without the code."],
  }
  return renderMail(mail, input)
}

/**
 * For an address that has an account: no code (a mailbox alone must not add a way into an
 * account that may have a password or a second factor), the way to sign in instead.
 */
export function renderPasskeySignUpExists(input: PasskeySignUpMailInput): PasswordEmail {
  const mail: MailContent = {
    subject: `Someone tried to create an account on ${input.host} with your address`,
    heading: ["You already have an account on ", HOST],
    intro: [
      [
        "Someone asked to create an account on ",
        HOST,
        " with a passkey and this email address, which has an account already. Nothing was changed.",
      ],
      [
        "If it was you, sign in as you usually do; once signed in, you can add a passkey to your account.",
      ],
    ],
    button: { label: "Sign in", href: input.signInUrl },
    footer: ["If it was not you, ignore this email: nobody can use it to change your account."],
  }
  return renderMail(mail, input)
}
