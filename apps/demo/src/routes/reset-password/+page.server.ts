// "Forgot your password?": the form action mails a reset link (to an address without an
// account, a mail saying so) and sends the user to the "check your email" page either way, so
// the page never tells whether an address has an account.
import { PasswordError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { codeOfQuery } from "$lib/password"
import { postedForm } from "$lib/server/form"
import { demoPasswordAccounts, requestPasswordReset } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = ({ url }) => ({
  available: demoPasswordAccounts(),
  // Where the user lands once the new password is set.
  callbackUrl: url.searchParams.get("callbackUrl") ?? "/",
  code: codeOfQuery(url),
  email: url.searchParams.get("email") ?? "",
})

export const actions: Actions = {
  default: async (event) => {
    const form = await postedForm(event.request.clone())
    try {
      await requestPasswordReset(event)
    } catch (error) {
      if (error instanceof PasswordError) {
        // Not one plain address, or the mail could not go out.
        return fail(400, {
          code: error.code,
          email: String(form.get("email") ?? ""),
          callbackUrl: String(form.get("redirectTo") ?? "/"),
        })
      }
      throw error
    }
  },
}
