import { redirect } from "@sveltejs/kit"
import type { Actions } from "./$types"

/** Signing out without the library: the session cookie (either name) deleted by the app. */
export const actions: Actions = {
  default: async ({ cookies }) => {
    cookies.delete("authjs.session-token", { path: "/" })
    cookies.delete("__Secure-authjs.session-token", { path: "/" })
    redirect(303, "/")
  },
}
