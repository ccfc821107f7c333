// "Confirm it is you" (/confirm, `pages.reauthenticate`): what the page says for each code of a
// `ReauthenticationRequired`, and where it sends the user back to.

/**
 * What the page says for each refused try (`ReauthenticationRequired`'s `code`). `required` and
 * `second_factor` are why the step is asked, not a mistake: the page's lead says them.
 */
const MESSAGES: Record<string, string> = {
  second_factor:
    "Confirm it with your second factor: a code from your authenticator app, or a passkey.",
  wrong_password: "That password is not right.",
  wrong_code: "That code is not right. Check it and try again.",
  replayed_code: "That code was used already: wait for the next one.",
  passkey_failed: "The passkey could not be checked. Try again, or confirm another way.",
  code_expired: "That code has expired, or was used: ask for a new one.",
  rate_limited: "Too many attempts: wait a few minutes, then try again.",
  mail_failed: "The email could not be sent. Try again in a moment.",
  no_method: "That way to confirm is not available for your account.",
  signed_out: "You are signed out: sign in again, then try again.",
  busy: "The server is busy: try again in a few seconds.",
}

/** A message for a refusal's code; a generic one for a code it does not know. */
export function reauthenticationMessage(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]! : "That did not work. Try again."
}

/**
 * A refusal's code from the page's query (`?error=ReauthenticationRequired&code=…`, as Latch
 * sends a change here); not `required`, which only says why the step is asked. Only codes that
 * look like one.
 */
export function reauthenticationCodeOfQuery(url: URL): string | undefined {
  const code = url.searchParams.get("code")
  if (url.searchParams.get("error") !== "ReauthenticationRequired" || !code) return undefined
  if (code === "required" || !/^[a-z_]{1,64}$/.test(code)) return undefined
  return code
}

/**
 * The query flags the demo's forms put in their `redirectTo` to say a change was made
 * (`/profile?removed`, `/account/password?changed`, `/profile?twoFactorOff`). A change that asked
 * for this step was not made: coming back, the page must not say it was.
 */
const DONE_FLAGS = ["removed", "changed", "twoFactorOff"]

/** Where a confirmation goes back to when the query names nowhere (or somewhere else). */
export const DEFAULT_RETURN = "/profile"

/**
 * Where the step goes back to once confirmed: `callbackUrl` on this origin (Latch sends it
 * absolute), as a path; the profile for anything else — another site, this page itself.
 */
export function returnPath(url: URL, callbackUrl: string | null): string {
  if (!callbackUrl) return DEFAULT_RETURN
  let target: URL
  try {
    target = new URL(callbackUrl, url.origin)
  } catch {
    return DEFAULT_RETURN
  }
  if (target.origin !== url.origin || target.pathname === url.pathname) return DEFAULT_RETURN
  for (const flag of DONE_FLAGS) target.searchParams.delete(flag)
  return `${target.pathname}${target.search}${target.hash}`
}

/** The demo's step, coming back to `path` once the user has confirmed it is them. */
export function confirmUrl(path: string): string {
  return `/confirm?${new URLSearchParams({ callbackUrl: path })}`
}
