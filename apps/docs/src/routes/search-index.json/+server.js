import { json } from "@sveltejs/kit"
import { buildSearchIndex } from "$lib/content/search.js"

export const prerender = true

export function GET() {
  return json(buildSearchIndex().toJSON())
}
