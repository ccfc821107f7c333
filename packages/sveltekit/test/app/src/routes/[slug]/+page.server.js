// A public catch-all page, as a CMS has: it serves paths like /ADMIN or /admin%2Fsettings.
/** @type {import("@sveltejs/kit").ServerLoad} */
export const load = ({ params }) => ({ content: `public page ${params.slug}` })
