// Remote functions (SvelteKit's `query` and `form`, experimental): sign-in and sign-out as
// remote forms, and a query only a signed-in user may call. Each remote function is an endpoint
// of its own, which no page's load or layout guards: `requireSession()` is the guard.
import { query } from "$app/server"
import { requireSession, signInForm, signOutForm } from "@latch/sveltekit/remote"
import { signIn, signOut } from "../auth"

export const signInRemote = signInForm(signIn)
export const signOutRemote = signOutForm(signOut)

/** Something for signed-in users only: a 401 for anyone else. */
export const accountSummary = query(async () => {
  const session = await requireSession()
  return {
    name: session.user?.name ?? session.user?.email ?? "you",
    expires: session.expires,
  }
})
