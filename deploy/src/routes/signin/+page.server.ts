import { CredentialsSignin } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { signIn } from "../../auth"
import type { Actions } from "./$types"

export const actions: Actions = {
  // `providerId` in the form picks Credentials or Password; a refusal comes back inline.
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin) return fail(400, { code: error.code })
      throw error
    }
  },
}
