// The session for the header and the live session in the browser (`useSession()`): `loadSession`
// returns `{ session }` and registers the load under "latch:session", the key the live session
// invalidates when it learns of a change (another tab signed out, the name was updated).
// For display only. Authorization never happens in a layout's load: SvelteKit may skip it on
// navigations between child pages, so it does not run for every child route. Pages check for
// themselves; /admin is guarded in hooks.server.ts.
import { loadSession } from "@latch/sveltekit"

export const load = loadSession
