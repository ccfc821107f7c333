import type { LayoutServerLoad } from "./$types"

// No authorization here (a layout's load is the wrong place for it): the guard is `protect` in
// hooks.server.ts. This load only reads `url`, which makes SvelteKit ask the server for data on
// every navigation under /admin, client-side ones included — so each passes through that guard.
export const load: LayoutServerLoad = ({ url }) => ({ section: url.pathname })
