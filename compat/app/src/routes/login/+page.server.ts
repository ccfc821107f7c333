import { fail } from "@sveltejs/kit"
import { AuthError, CredentialsSignin } from "@auth/sveltekit"
import { describeError } from "$lib/errors"
import { signIn } from "../../auth"
import type { Actions } from "./$types"

/**
 * A sign-in form of the app's own: the action calls the server `signIn` itself and shows a
 * refused sign-in on its page (400) instead of the built-in sign-in page.
 */
export const actions: Actions = {
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) {
        return fail(400, { message: describeError(error.type, error.code) })
      }
      // An error of the app's own (AccountLocked), told apart by its type.
      if (error instanceof AuthError) return fail(400, { message: describeError(error.type, null) })
      // The redirect that follows a sign-in, or what the app does not know.
      throw error
    }
  },
}
