// The documents of the search index: one per section of each Markdown page (its heading and text,
// found at the heading's anchor), and
// one per item of the reference (its name and the summary of its TSDoc), so that a search for an
// option's name lands on the option.
import MiniSearch from "minisearch"
import { searchOptions } from "../search-options.js"
import { renderReference, referencePages } from "./reference.js"
import { renderPage } from "./render.js"
import { pages } from "./site.js"

export function buildSearchIndex() {
  const search = new MiniSearch(searchOptions)
  const documents = []
  for (const page of pages()) {
    for (const section of renderPage(page).sections) {
      if (!section.text.trim() && section.id === null) continue
      const url = section.id ? `/${page.slug}#${section.id}` : `/${page.slug}`
      documents.push({
        id: url,
        url,
        title: section.title,
        section: section.title === page.title ? page.section : page.title,
        text: section.text,
      })
    }
  }
  // A type that several entry points share (through `./providers` and `./types` too) is
  // indexed once, at the first entry point that has it: the package's main one first.
  const seen = new Set()
  for (const page of referencePages()) {
    for (const item of renderReference(page).items) {
      const key = `${page.packageName} ${item.id}`
      if (seen.has(key)) continue
      seen.add(key)
      documents.push({
        id: `/${page.slug}#${item.id}`,
        url: `/${page.slug}#${item.id}`,
        title: item.name,
        section: page.title,
        text: item.summary,
      })
    }
  }
  search.addAll(documents)
  return search
}
