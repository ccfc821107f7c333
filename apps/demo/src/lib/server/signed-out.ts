// A form posted without a session (signed out in another tab, the session ended on another
// device, or it expired): a 401 naming the form, so that the page says so right above that form's
// button, with a link to sign in again, rather than doing nothing.
import { fail, type RequestEvent } from "@sveltejs/kit"

/** The refusal of a form posted without a session; `form` names the form it answers. */
export function signedOut(form: string) {
  return fail(401, { signedOut: form })
}

/** Whether the request comes with a signed-in user. */
export async function hasUser(event: RequestEvent): Promise<boolean> {
  return Boolean((await event.locals.auth())?.user)
}
