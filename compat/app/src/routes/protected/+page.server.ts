import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async (event) => {
  const session = await event.locals.auth()
  if (!session?.user) {
    redirect(303, `/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`)
  }
  const id: string = session.user.id
  return { id, role: session.user.role ?? null, expires: session.expires }
}
