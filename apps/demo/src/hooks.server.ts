import { protect } from "@latch/sveltekit"
import { guardRemoteFunctions } from "@latch/sveltekit/remote"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as authHandle } from "./auth"

/**
 * Per-path protection: everything under /admin needs a session. `protect` runs after Latch's
 * handle (which sets `locals.auth`), for every request, including client-side navigations' data
 * requests, form actions and endpoints — unlike a layout's load. It matches the route SvelteKit
 * picked and the decoded path, so `/%61dmin`, `/ADMIN` or `//admin` are kept out too; an
 * anonymous visitor gets a 303 to /signin?callbackUrl=<the page asked for>.
 *
 * First, `guardRemoteFunctions` answers remote function requests SvelteKit cannot read (a form
 * field sent twice, a body that is no form…) with a 4xx, where SvelteKit would answer 500.
 */
export const handle = sequence(
  guardRemoteFunctions,
  authHandle,
  protect(["/admin"], { signIn: "/signin" }),
)
