import { protect } from "@latch/sveltekit"
import { sequence } from "@sveltejs/kit/hooks"
import { guardRemoteForms } from "$lib/server/remote-guard"
import { handle as authHandle } from "./auth"

/**
 * Per-path protection: everything under /admin needs a session. `protect` runs after Latch's
 * handle (which sets `locals.auth`), for every request, including client-side navigations' data
 * requests, form actions and endpoints — unlike a layout's load. It matches the route SvelteKit
 * picked and the decoded path, so `/%61dmin`, `/ADMIN` or `//admin` are kept out too; an
 * anonymous visitor gets a 303 to /signin?callbackUrl=<the page asked for>.
 *
 * First, `guardRemoteForms` answers remote form bodies SvelteKit cannot read with a 400.
 */
export const handle = sequence(
  guardRemoteForms,
  authHandle,
  protect(["/admin"], { signIn: "/signin" }),
)
