// The search index's options: the same when the index is built (at build time) and when the
// browser loads it, as MiniSearch requires.

export const searchOptions = {
  fields: ["title", "headings", "text"],
  storeFields: ["title", "section", "url"],
  searchOptions: {
    boost: { title: 4, headings: 2 },
    prefix: true,
    fuzzy: 0.15,
    combineWith: "AND",
  },
}
