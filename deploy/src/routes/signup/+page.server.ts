import { PasswordError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { signUp } from "../../auth"
import type { Actions } from "./$types"

export const actions: Actions = {
  default: async (event) => {
    try {
      await signUp(event)
    } catch (error) {
      if (error instanceof PasswordError) return fail(400, { code: error.code })
      throw error
    }
  },
}
