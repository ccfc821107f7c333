import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

// The second and third `locals.auth()` calls: a guard, then a read further down the page (as
// separate helpers would do). Memoized per request: still one session read in all.
export const load: PageServerLoad = async ({ locals }) => {
  const session = await locals.auth()
  if (!session?.user) redirect(303, "/signin")
  const again = await locals.auth()
  return { name: session.user.name ?? "", expires: again?.expires ?? null }
}
