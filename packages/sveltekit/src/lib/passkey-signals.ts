/**
 * The WebAuthn Signal API (WebAuthn Level 3 §5.1.10): the site tells the browser's passkey
 * provider which of its passkeys still work, so that a passkey removed from the account (or never
 * stored) stops being offered. Each call only where the browser has it, and never throwing: a
 * browser that cannot be told is no reason for a page to fail.
 */
import type { PasskeySignals } from "@latch/core"

export type { PasskeySignals }

/** The signal methods, on browsers that have them. */
interface SignalMethods {
  signalUnknownCredential?(options: { rpId: string; credentialId: string }): Promise<void>
  signalAllAcceptedCredentials?(options: {
    rpId: string
    userId: string
    allAcceptedCredentialIds: string[]
  }): Promise<void>
  signalCurrentUserDetails?(options: {
    rpId: string
    userId: string
    name: string
    displayName: string
  }): Promise<void>
}

function signals(): SignalMethods | undefined {
  return typeof PublicKeyCredential === "undefined"
    ? undefined
    : (PublicKeyCredential as unknown as SignalMethods)
}

/** Calls one signal method if the browser has it; `true` when it was called and settled. */
async function call<K extends keyof SignalMethods>(
  name: K,
  options: Parameters<NonNullable<SignalMethods[K]>>[0],
): Promise<boolean> {
  const api = signals()
  const method = api?.[name] as ((options: unknown) => Promise<void>) | undefined
  if (typeof method !== "function") return false
  try {
    await method.call(api, options)
    return true
  } catch {
    // Refused (another RP id, no user activation where one is asked): nothing to do.
    return false
  }
}

/** Tells the browser that the site does not know this credential (it was removed). */
export function signalUnknownCredential(rpId: string, credentialId: string): Promise<boolean> {
  return call("signalUnknownCredential", { rpId, credentialId })
}

/**
 * Tells the browser which passkeys the signed-in user has on this site, and their names, from
 * what the server gives (`getPasskeySignals(event)`, or `passkeys` in the answer of
 * `GET {basePath}/account`): the browser's passkey provider hides or deletes the user's other
 * passkeys of this site, and shows the current name and display name beside them. Call it on a
 * page of the signed-in user (their account page), after a passkey was added, removed or their
 * name changed. Does nothing where the browser has no Signal API, or given `null`/`undefined`;
 * never throws.
 *
 * @example
 * ```svelte
 * <script lang="ts">
 *   import { signalPasskeys } from "@latch/sveltekit/webauthn"
 *   let { data } = $props()
 *   $effect(() => { signalPasskeys(data.passkeys) })
 * </script>
 * ```
 */
export async function signalPasskeys(data: PasskeySignals | null | undefined): Promise<void> {
  if (!data) return
  const { rpId, userId, allAcceptedCredentialIds, name, displayName } = data
  await Promise.all([
    call("signalAllAcceptedCredentials", { rpId, userId, allAcceptedCredentialIds }),
    call("signalCurrentUserDetails", { rpId, userId, name, displayName }),
  ])
}
