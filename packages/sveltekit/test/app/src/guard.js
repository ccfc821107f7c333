// The route protection under test. LATCH_TEST_GUARD=startsWith swaps in the string test on
// `event.url.pathname` that apps used to write (as the demo did), to show what the tests catch.
import { building } from "$app/environment"
import { protect } from "@latch/sveltekit"
import { redirect } from "@sveltejs/kit"

/** The protected paths: a page and its children, a route in a group, a `[param]` route. */
const PATHS = ["/admin", "/staff", "/reports"]

export const guard = protect([
  ...PATHS,
  // Signed-in users other than Alice get a 403 here.
  { path: "/owner", allow: (session) => session.user?.email === "alice@example.com" },
])

/** @type {import("@sveltejs/kit").Handle} */
const startsWithGuard = async ({ event, resolve }) => {
  if (building) return resolve(event)
  const { pathname } = event.url
  if ([...PATHS, "/owner"].some((path) => pathname === path || pathname.startsWith(`${path}/`))) {
    const session = await event.locals.auth()
    if (!session?.user) {
      const callbackUrl = pathname + event.url.search
      redirect(303, `/auth/signin?${new URLSearchParams({ callbackUrl })}`)
    }
  }
  return resolve(event)
}

export const handle = process.env.LATCH_TEST_GUARD === "startsWith" ? startsWithGuard : guard
