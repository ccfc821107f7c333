// "Confirm it is you" (`pages.reauthenticate`): a change to how the user signs in — a passkey, a
// linked account, two-factor authentication, removing a method — needs a sign-in of this
// browser within the last five minutes (with the second factor, for a user who has one). Past
// that, Latch sends the change here, `?callbackUrl=` where the user was, and changes nothing.
// `getReauthentication` says which ways the user has to confirm it: the password, a code of the
// authenticator app (or a recovery code), a passkey, a code mailed to the address. The
// `reauthenticate` form action takes one; confirmed, the user goes back and makes the change.
import { getReauthentication, ReauthenticationRequired } from "@latch/sveltekit"
import { fail, redirect } from "@sveltejs/kit"
import { postedForm } from "$lib/server/form"
import { fromDatabase } from "$lib/server/unavailable"
import { reauthenticationCodeOfQuery, returnPath } from "$lib/reauthentication"
import { reauthenticate } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = async (event) => {
  const { url } = event
  const callbackUrl = returnPath(url, url.searchParams.get("callbackUrl"))
  const step = await fromDatabase(event, () => getReauthentication(event))
  // Signed out (or the session ended meanwhile): a sign-in is the freshest proof there is.
  if (!step) redirect(303, `/signin?${new URLSearchParams({ callbackUrl })}`)
  return {
    callbackUrl,
    // Confirmed already (another tab, or a sign-in just now): nothing to ask.
    fresh: step.fresh,
    freshUntil: step.freshUntil ?? null,
    // The ways to offer, best first. A user with two-factor authentication on is offered only
    // those that include it (a code, or a passkey that checks a fingerprint, face or PIN): a
    // password or a mailed code may be what a thief of the session holds too.
    methods: step.methods,
    secondFactor: step.secondFactor,
    passkeyProvider: step.passkeyProvider ?? null,
    email: step.email ?? null,
    // After "Email me a code", the page comes back with `?sent=1` and asks for it.
    sent: url.searchParams.get("sent") === "1",
    code: reauthenticationCodeOfQuery(url),
  }
}

export const actions: Actions = {
  // Every way posts here with its `method`: `password` (`password`), `code` (`code` or
  // `recoveryCode`), `passkey` (`action` and `data`, the credential the browser made), `email`
  // (`send` to mail a code, then `emailCode`). Confirmed: a 303 to `redirectTo`.
  default: async (event) => {
    // Read before `reauthenticate` reads the body: which way was tried, and where to go back.
    const fields = await postedForm(event.request.clone())
    try {
      await reauthenticate(event)
    } catch (error) {
      // `wrong_password`, `wrong_code`, `replayed_code`, `passkey_failed`, `code_expired`,
      // `rate_limited` (with Retry-After), `mail_failed`, `second_factor` (a way that does not
      // include the user's second factor), `no_method`, `signed_out`.
      if (error instanceof ReauthenticationRequired) {
        return fail(400, {
          code: error.code,
          // A mailed code that was refused: its field stays on the page.
          emailCodeTried: fields.get("method") === "email" && fields.has("emailCode"),
          // Without JavaScript the page is rendered again from this answer, at a URL that may
          // have lost its query (the code form posts to /confirm).
          callbackUrl: returnPath(event.url, String(fields.get("redirectTo") ?? "")),
        })
      }
      throw error
    }
  },
}
