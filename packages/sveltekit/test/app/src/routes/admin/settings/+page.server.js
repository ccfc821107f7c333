/** @type {import("@sveltejs/kit").ServerLoad} */
export const load = () => ({ content: "PROTECTED admin settings" })

/** @type {import("@sveltejs/kit").Actions} */
export const actions = { default: () => ({ saved: "PROTECTED action ran" }) }
