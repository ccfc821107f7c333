import { error } from "@sveltejs/kit"
import { allPages, findPage } from "$lib/content/all.js"

/** @type {import('./$types').EntryGenerator} */
export function entries() {
  return allPages().map((page) => ({ slug: page.slug }))
}

/** @type {import('./$types').PageServerLoad} */
export function load({ params }) {
  const page = findPage(params.slug)
  if (!page) error(404, "No such page")
  const { html, headings } = page.render()
  return {
    slug: page.slug,
    title: page.title,
    section: page.section,
    source: page.source ?? null,
    html,
    toc: headings.filter((h) => h.depth === 2),
  }
}
