import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

// Per-page protection: this load runs for every request of this page.
export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) {
    redirect(303, `/signin?${new URLSearchParams({ callbackUrl: url.pathname + url.search })}`)
  }
  return { user: session.user }
}
