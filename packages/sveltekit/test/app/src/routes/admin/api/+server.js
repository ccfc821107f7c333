import { json } from "@sveltejs/kit"

/** @type {import("@sveltejs/kit").RequestHandler} */
export const GET = () => json({ content: "PROTECTED admin api" })
