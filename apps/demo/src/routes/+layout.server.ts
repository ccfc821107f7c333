import type { LayoutServerLoad } from "./$types"

// For display only (the header shows who is signed in). Authorization never happens in a
// layout's load: SvelteKit may skip it on navigations between child pages, so it does not run
// for every child route. Pages check for themselves; /admin is guarded in hooks.server.ts.
export const load: LayoutServerLoad = async ({ locals }) => {
  return { session: await locals.auth() }
}
