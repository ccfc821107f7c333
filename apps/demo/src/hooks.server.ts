import { building } from "$app/environment"
import { redirect, type Handle } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as authHandle } from "./auth"

/**
 * Per-path protection: everything under /admin needs a session. It runs after Latch's handle
 * (which sets `locals.auth`), for every request, including client-side navigations' data
 * requests — unlike a layout's load.
 */
const protectAdmin: Handle = async ({ event, resolve }) => {
  // While prerendering there are no users (and no query string to carry back).
  if (building) return resolve(event)
  if (event.url.pathname === "/admin" || event.url.pathname.startsWith("/admin/")) {
    const session = await event.locals.auth()
    if (!session?.user) {
      const callbackUrl = event.url.pathname + event.url.search
      redirect(303, `/signin?${new URLSearchParams({ callbackUrl })}`)
    }
  }
  return resolve(event)
}

export const handle = sequence(authHandle, protectAdmin)
