// The documents of the search index: one per Markdown page (its title, headings and text), and
// one per item of the reference (its name and the summary of its TSDoc), so that a search for an
// option's name lands on the option.
import MiniSearch from "minisearch"
import { searchOptions } from "../search-options.js"
import { allPages } from "./all.js"
import { renderReference } from "./reference.js"
import { referencePages } from "./reference.js"

export function buildSearchIndex() {
  const search = new MiniSearch(searchOptions)
  const documents = []
  for (const page of allPages()) {
    if (page.slug.startsWith("reference/")) continue
    const { headings, text } = page.render()
    documents.push({
      id: `/${page.slug}`,
      url: `/${page.slug}`,
      title: page.title,
      section: page.section,
      headings: headings.map((h) => h.text).join(" "),
      text,
    })
  }
  for (const page of referencePages()) {
    for (const item of renderReference(page).items) {
      documents.push({
        id: `/${page.slug}#${item.id}`,
        url: `/${page.slug}#${item.id}`,
        title: item.name,
        section: page.title,
        headings: "",
        text: item.summary,
      })
    }
  }
  search.addAll(documents)
  return search
}
