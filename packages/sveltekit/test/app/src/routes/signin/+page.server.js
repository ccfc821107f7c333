import { signIn } from "../../auth.js"

/** @type {import("@sveltejs/kit").Actions} */
export const actions = { default: signIn }
