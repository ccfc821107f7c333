// Setting up an authenticator app (`pages.twoFactorSetup`), for the signed-in user — or for a
// sign-in that must set one up before its session, were `twoFactor.required` configured.
// `beginTwoFactorSetup` makes a new secret on every load: the page shows it as a QR code and as
// a key to type, and posts it back sealed (`setup`) with a code the app made of it. Nothing is
// stored before that code matches; then `confirmTwoFactorSetup` returns the ten recovery codes,
// which the page shows once. With the factor on already, the same page moves it to another app
// (`replacing`: a code of the current app is asked too).
// Turning it on is a change of how the user signs in: more than five minutes after this browser
// signed in, the user confirms it is them (/confirm) before the page shows a key — a key scanned
// before that would be one the next load replaces.
import { beginTwoFactorSetup, getReauthentication, TwoFactorError } from "@latch/sveltekit"
import { fail, redirect } from "@sveltejs/kit"
import { confirmUrl } from "$lib/reauthentication"
import { fromDatabase } from "$lib/server/unavailable"
import { confirmTwoFactorSetup, demoSessionStrategy } from "../../../auth"
import type { Actions, PageServerLoad } from "./$types"

/** The sign-in page, coming back here. */
const signInHere = `/signin?${new URLSearchParams({ callbackUrl: "/settings/two-factor" })}`

export const load: PageServerLoad = async (event) => {
  // A first authenticator needs fresh proof of this session; moving to another app asks a code
  // of the current one instead. No session (a sign-in that must set one up): nothing to confirm.
  const step = await fromDatabase(event, () => getReauthentication(event))
  if (step && !step.fresh && !step.secondFactor) redirect(303, confirmUrl("/settings/two-factor"))
  const setup = await fromDatabase(event, () => beginTwoFactorSetup(event))
  if (!setup) redirect(303, signInHere)
  return {
    // The key to type by hand, the `otpauth://` URI (a link, on a phone), the QR code of it
    // (drawn by Latch as an <svg>: nothing of the user's in it) and the sealed secret.
    key: setup.secret,
    uri: setup.uri,
    qrSvg: setup.qrSvg,
    setup: setup.setup,
    replacing: setup.replacing,
    signsOutOthers: demoSessionStrategy() === "database",
  }
}

export const actions: Actions = {
  default: async (event) => {
    try {
      // `{ recoveryCodes, continueUrl }`: to show once (Latch keeps only their HMACs).
      return await confirmTwoFactorSetup(event)
    } catch (error) {
      // `wrong_code` (or a `setup` that is not this user's), `replayed_code`, `rate_limited`,
      // `signed_out`, `expired`.
      if (error instanceof TwoFactorError) return fail(400, { code: error.code })
      throw error
    }
  },
}
