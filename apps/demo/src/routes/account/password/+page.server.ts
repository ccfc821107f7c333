// Changing the signed-in user's password (`pages.changePassword`): the current one is asked
// for, so a session left open on a shared computer cannot lock its owner out. Latch then ends
// the user's other sessions (database sessions) and mails them a notice.
// For a user with two-factor authentication on, the password is not proof enough: more than five
// minutes after this browser signed in, they confirm it is them with their second factor first
// (/confirm), before typing anything here.
import { getReauthentication, getSignInMethods, PasswordError } from "@latch/sveltekit"
import { fail, redirect } from "@sveltejs/kit"
import { codeOfQuery } from "$lib/password"
import { confirmUrl } from "$lib/reauthentication"
import { fromDatabase } from "$lib/server/unavailable"
import { changePassword, demoPasswordAccounts, demoSessionStrategy } from "../../../auth"
import type { Actions, PageServerLoad } from "./$types"

/** The sign-in page, coming back here. */
const signInHere = `/signin?${new URLSearchParams({ callbackUrl: "/account/password" })}`

export const load: PageServerLoad = async (event) => {
  const session = await event.locals.auth()
  if (!session?.user) redirect(303, signInHere)
  const methods = await fromDatabase(event, () => getSignInMethods(event))
  if (!methods) redirect(303, signInHere)
  const hasPassword = methods.some((method) => method.type === "password")
  const step = hasPassword ? await fromDatabase(event, () => getReauthentication(event)) : null
  if (step?.secondFactor && !step.fresh) redirect(303, confirmUrl("/account/password"))
  return {
    available: demoPasswordAccounts(),
    email: session.user.email ?? "",
    // An account without a password (email links, passkeys, OpenID) sets one by a reset link.
    hasPassword,
    signsOutOthers: demoSessionStrategy() === "database",
    changed: event.url.searchParams.has("changed"),
    code: codeOfQuery(event.url),
  }
}

export const actions: Actions = {
  default: async (event) => {
    try {
      // Back to this page on success (the form's `redirectTo`).
      await changePassword(event)
    } catch (error) {
      if (error instanceof PasswordError) return fail(400, { code: error.code })
      throw error
    }
  },
}
