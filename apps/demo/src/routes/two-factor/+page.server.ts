// The code step of a sign-in (`pages.twoFactor`): a user with two-factor authentication on ends
// every primary sign-in here — password, email link, OpenID — with no session yet; Latch holds
// the sign-in in a sealed cookie for five minutes. A code of the authenticator app, or one of
// the recovery codes (`?recovery`), starts the session (`verifyTwoFactor`), which then goes
// where the sign-in was going.
import { TwoFactorError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { postedForm } from "$lib/server/form"
import { twoFactorCodeOfQuery } from "$lib/two-factor"
import { verifyTwoFactor } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

/**
 * Whether a sign-in waits for its code in this browser: Latch's sealed cookie of it
 * (`latch.two-factor`, `__Secure-` on https, in chunks `.0`, `.1`… when long). Only whether one
 * is there: Latch opens and checks it when the code is posted (too late, or spent: `expired`).
 */
const PENDING_COOKIE = /^(__Secure-)?latch\.two-factor(\.\d+)?$/

export const load: PageServerLoad = async ({ url, cookies }) => ({
  recovery: url.searchParams.has("recovery"),
  // Latch's own redirects here carry a refusal in the query (`?error=TwoFactorError&code=`).
  code: twoFactorCodeOfQuery(url),
  waiting: cookies.getAll().some(({ name }) => PENDING_COOKIE.test(name)),
})

export const actions: Actions = {
  default: async (event) => {
    // Read before `verifyTwoFactor` reads the body: which form was posted.
    const recovery = (await postedForm(event.request.clone())).has("recoveryCode")
    try {
      // A 303 where the sign-in was going, with the session.
      await verifyTwoFactor(event)
    } catch (error) {
      // `wrong_code`, `replayed_code` (a code is accepted once), `rate_limited` (5 wrong codes
      // per account and network per 15 minutes; right ones do not count), `expired` (no sign-in
      // waiting: too late, or none).
      if (error instanceof TwoFactorError) return fail(400, { code: error.code, recovery })
      throw error
    }
  },
}
