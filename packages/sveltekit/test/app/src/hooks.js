// A translated path for the admin page: SvelteKit routes /verwaltung to /admin, which only the
// route id shows (the URL still reads /verwaltung).
/** @type {import("@sveltejs/kit").Reroute} */
export const reroute = ({ url }) => (url.pathname === "/verwaltung" ? "/admin" : undefined)
