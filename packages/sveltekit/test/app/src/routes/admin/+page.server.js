/** @type {import("@sveltejs/kit").ServerLoad} */
export const load = () => ({ content: "PROTECTED admin" })
