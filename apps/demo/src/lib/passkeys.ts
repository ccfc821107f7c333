// Passkeys, for the pages: what adding one says when it fails, by the `error` of `signIn` from
// `@latch/sveltekit/webauthn` (the browser's reason, or the server's refusal).

const MESSAGES: Record<string, string> = {
  // WebAuthn's `excludeCredentials`: the server lists the account's passkeys, and an
  // authenticator that holds one of them refuses to make another.
  InvalidStateError:
    "No passkey was added: this device (or your password manager) already holds a passkey for " +
    "your account, and keeps one per account. Sign in with that one, or add a passkey from " +
    "another device or password manager.",
  NotAllowedError:
    "No passkey was added: the request was cancelled or timed out. Try again, and confirm on " +
    "your device when it asks.",
  WebAuthnRateLimited:
    "No passkey was added: too many attempts. Wait a few minutes, then try again.",
  WebAuthnNotSupported: "No passkey was added: this browser cannot make passkeys.",
}

/** What the profile says when adding a passkey failed with `error`. */
export function passkeyMessage(error: string | undefined): string {
  return error && Object.hasOwn(MESSAGES, error)
    ? MESSAGES[error]!
    : "No passkey was added. Try again in a moment."
}
