// Signing in with a passkey through <SignIn provider="passkey">: its form posts the browser's
// credential here, and `signIn` verifies it like any sign-in.
import { WebAuthnVerificationError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { signIn } from "../../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = ({ url }) => ({
  callbackUrl: url.searchParams.get("callbackUrl") ?? "/",
})

export const actions: Actions = {
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      // A passkey the server does not know, or a response without its challenge: say so on the
      // page (`code` names which), rather than the error page.
      if (error instanceof WebAuthnVerificationError) return fail(400, { passkeyCode: error.code })
      throw error
    }
  },
}
