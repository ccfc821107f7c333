// Creating a password account. The form action mails a link to the address and sends the user
// to the "check your email" page; the account exists once the link is followed, so nobody
// creates one in someone else's name. The page says the same whether or not the address has an
// account (its owner gets a mail either way). A refused password comes back inline.
import { PasswordError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { codeOfQuery } from "$lib/password"
import { postedForm } from "$lib/server/form"
import { demoPasswordAccounts, signUp } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = ({ url }) => ({
  available: demoPasswordAccounts(),
  // Where the link leads once followed.
  callbackUrl: url.searchParams.get("callbackUrl") ?? "/",
  // A refusal of the built-in forms comes back here as `?error=PasswordError&code=…&email=…`.
  code: codeOfQuery(url),
  email: url.searchParams.get("email") ?? "",
})

export const actions: Actions = {
  default: async (event) => {
    const form = await postedForm(event.request.clone())
    try {
      await signUp(event)
    } catch (error) {
      if (error instanceof PasswordError) {
        // Everything but the password, to fill the form in again.
        return fail(400, {
          code: error.code,
          name: String(form.get("name") ?? ""),
          email: String(form.get("email") ?? ""),
          callbackUrl: String(form.get("redirectTo") ?? "/"),
        })
      }
      throw error
    }
  },
}
