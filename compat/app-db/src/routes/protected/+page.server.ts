import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) redirect(303, `/?callbackUrl=${encodeURIComponent(url.pathname)}`)
  return {
    email: session.user.email ?? null,
    role: session.user.role ?? null,
    columns: Object.keys(session.user).sort(),
  }
}
