// What the demo's error page says for each `error` (and, for a refusal at the provider, `code`)
// Latch sends it: what happened, what to do, and which way back. An unknown value gets general
// words and is never shown: the query is anyone's to write.

export interface ErrorWords {
  heading: string
  /** What happened. */
  message: string
  /** What to do about it. */
  advice: string
  /** The way back first offered: signing in again, or the home page. */
  next: "signin" | "home"
}

const WORDS: Record<string, ErrorWords> = {
  // Auth.js's ErrorPageParam values: the built-in error page's too.
  Configuration: {
    heading: "Something is wrong on our side",
    message: "The server could not finish signing you in because of a problem with its setup.",
    advice:
      "This is not something you did. Try again in a few minutes; the server's log says what to fix.",
    next: "home",
  },
  AccessDenied: {
    heading: "Access denied",
    message: "This account is not allowed to sign in here.",
    advice: "Sign in with another account, or another way.",
    next: "signin",
  },
  Verification: {
    heading: "This sign-in link no longer works",
    message: "It was used already, or it expired: each link works once, for a short time.",
    advice: "Ask for a new link on the sign-in page.",
    next: "signin",
  },
  // Refusals of an OpenID / OAuth sign-in (hooks.server.ts sends them here).
  OAuthCallbackError: {
    heading: "Signing in with the provider did not finish",
    message: "The provider did not let the sign-in through.",
    advice: "Try again, or sign in another way.",
    next: "signin",
  },
  OAuthAccountNotLinked: {
    heading: "That account belongs to another user",
    message:
      "The account you chose at the provider is already linked to another user of this site, so it cannot be used here.",
    advice:
      "Sign in the way you usually do, or choose another account at the provider. If the account is yours, sign in as that user and unlink it there first.",
    next: "signin",
  },
  OAuthSignin: {
    heading: "Could not reach the provider",
    message: "The sign-in could not be started with the provider.",
    advice: "Try again in a moment, or sign in another way.",
    next: "signin",
  },
}

/** A refusal at the provider (`?error=access_denied` on the callback): the user said no. */
const CANCELLED: ErrorWords = {
  heading: "Sign-in cancelled",
  message:
    "You cancelled at the provider, or said no to sharing your account: you are not signed in.",
  advice: "Nothing was changed. Sign in again when you are ready, or choose another way.",
  next: "signin",
}

const GENERIC: ErrorWords = {
  heading: "Something went wrong",
  message: "The sign-in could not be finished.",
  advice: "Try again from the sign-in page, or go back to the home page.",
  next: "signin",
}

/** The words for an `error` and a `code` from the query. */
export function errorWords(error: string | null, code: string | null): ErrorWords {
  if (error === "OAuthCallbackError" && code === "access_denied") return CANCELLED
  return error !== null && Object.hasOwn(WORDS, error) ? (WORDS[error] ?? GENERIC) : GENERIC
}

/** The code to show under the words: only a value the page knows, never what was typed. */
export function shownCode(error: string | null, code: string | null): string | undefined {
  if (error === "OAuthCallbackError" && code === "access_denied") return code
  return error !== null && Object.hasOwn(WORDS, error) ? error : undefined
}
