import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) {
    redirect(303, `/signin?${new URLSearchParams({ callbackUrl: url.pathname })}`)
  }
  return { user: session.user }
}
