/**
 * The email provider's `code` option, read once: how long a mailed code is and how long it
 * works. Checked when the configuration is resolved, so that a mistake shows before any mail
 * goes out.
 */
import type { EmailConfig } from "../../providers/email.js"

export const DEFAULT_CODE_LENGTH = 6
export const MIN_CODE_LENGTH = 6
export const MAX_CODE_LENGTH = 8
/** The default life of a code: 10 minutes. */
export const DEFAULT_CODE_MAX_AGE = 10 * 60

/** A provider's code settings. */
export interface CodeSettings {
  length: number
  maxAge: number
}

/** The provider's code settings, or `undefined` when its mails carry no code. */
export function codeSettings(provider: EmailConfig): CodeSettings | undefined {
  const option = provider.code
  if (!option) return undefined
  const given = option === true ? {} : option
  return {
    length: given.length ?? DEFAULT_CODE_LENGTH,
    maxAge: given.maxAge ?? DEFAULT_CODE_MAX_AGE,
  }
}

/** Why the `code` option is not usable, or `undefined` when it is. */
export function codeOptionProblem(option: unknown): string | undefined {
  if (option === undefined || typeof option === "boolean") return undefined
  if (typeof option !== "object" || option === null) return "must be true, false or an object"
  const { length, maxAge } = option as { length?: unknown; maxAge?: unknown }
  if (
    length !== undefined &&
    !(
      typeof length === "number" &&
      Number.isInteger(length) &&
      length >= MIN_CODE_LENGTH &&
      length <= MAX_CODE_LENGTH
    )
  ) {
    return `length must be a whole number from ${MIN_CODE_LENGTH} to ${MAX_CODE_LENGTH}`
  }
  if (
    maxAge !== undefined &&
    !(typeof maxAge === "number" && maxAge > 0 && Number.isFinite(maxAge))
  ) {
    return "maxAge must be a positive number of seconds"
  }
  return undefined
}
