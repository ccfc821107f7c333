import type { LayoutServerLoad } from "./$types"

// The first of three `locals.auth()` calls of a /protected request, as a layout showing who is
// signed in would make. The page's load runs alongside it; all three share one memoized read.
export const load: LayoutServerLoad = async ({ locals }) => {
  const session = await locals.auth()
  return { signedIn: Boolean(session?.user) }
}
