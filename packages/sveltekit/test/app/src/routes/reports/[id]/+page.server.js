/** @type {import("@sveltejs/kit").ServerLoad} */
export const load = ({ params }) => ({ content: `PROTECTED report ${params.id}` })
