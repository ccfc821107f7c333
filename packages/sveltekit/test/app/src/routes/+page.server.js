/** @type {import("@sveltejs/kit").ServerLoad} */
export const load = async ({ locals }) => ({ session: await locals.auth() })
