// Two-factor authentication, for the pages: what each refusal's code means, and the key of a
// setup as people copy it by hand.

/**
 * What the pages say for each `code` of a `TwoFactorError` (the code step, the setup, turning it
 * off, new recovery codes).
 */
const MESSAGES: Record<string, string> = {
  wrong_code: "That code is not right. Check your authenticator app and try again.",
  replayed_code: "That code was used already: wait for the next one.",
  rate_limited: "Too many codes: wait 15 minutes, then try again.",
  expired: "The sign-in took too long, or there is none waiting: sign in again.",
  not_enrolled: "Two-factor authentication is not on.",
  signed_out: "You are signed out: sign in again, then try again.",
  unverified: "Confirm your address first: follow the link we mailed you.",
  key_refused: "That security key was not accepted: use a key you added to this account.",
}

/** A message for a refusal's code; a generic one for a code it does not know. */
export function twoFactorMessage(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : "That did not work. Try again."
}

/**
 * A refusal's code from the page's query: core sends a sign-in that waited too long back with
 * `?error=TwoFactorError&code=…`. Only codes that look like one.
 */
export function twoFactorCodeOfQuery(url: URL): string | undefined {
  const code = url.searchParams.get("code")
  if (url.searchParams.get("error") !== "TwoFactorError" || !code) return undefined
  return /^[a-z_]{1,64}$/.test(code) ? code : undefined
}

/** A setup's key in groups of four, as it is easiest to type: `ABCD EFGH …`. */
export function keyInGroups(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret
}
