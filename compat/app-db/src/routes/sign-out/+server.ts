import { redirect } from "@sveltejs/kit"
import type { RequestHandler } from "./$types"

/**
 * Signing out without the library: the session cookie (either name) deleted by the app. The
 * session's row stays in the database until it expires.
 */
export const POST: RequestHandler = ({ cookies }) => {
  cookies.delete("authjs.session-token", { path: "/" })
  cookies.delete("__Secure-authjs.session-token", { path: "/" })
  redirect(303, "/")
}
