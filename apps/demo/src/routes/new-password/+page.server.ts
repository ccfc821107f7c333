// The page a reset link leads to (`pages.newPassword`): Latch checks the link at
// /auth/new-password/<provider>?token=…, then sends the user here with the same `?token=`. The
// form action sets the new password, ends the account's other sessions and signs the user in;
// a link already used (or expired) ends on the error page instead.
import { PasswordError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { codeOfQuery } from "$lib/password"
import { demoPasswordAccounts, setNewPassword } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = ({ url }) => ({
  available: demoPasswordAccounts(),
  token: url.searchParams.get("token") ?? "",
  code: codeOfQuery(url),
})

export const actions: Actions = {
  default: async (event) => {
    try {
      // The `token` field, else the page's `?token=`.
      await setNewPassword(event)
    } catch (error) {
      if (error instanceof PasswordError) return fail(400, { code: error.code })
      throw error
    }
  },
}
