import { fail } from "@sveltejs/kit"
import { EmailSignInError } from "@auth/core/errors"
import { signIn } from "../../auth"
import type { Actions } from "./$types"

export const actions: Actions = {
  default: async (event) => {
    try {
      return await signIn(event)
    } catch (error) {
      if (error instanceof EmailSignInError) return fail(400, { error: error.type })
      throw error
    }
  },
}
