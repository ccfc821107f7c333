// The search index's options: the same when the index is built (at build time) and when the
// browser loads it, as MiniSearch requires.

/** @type {import("minisearch").Options} */
export const searchOptions = {
  fields: ["title", "text"],
  storeFields: ["title", "section", "url"],
  searchOptions: {
    boost: { title: 3 },
    prefix: true,
    fuzzy: 0.15,
    combineWith: /** @type {const} */ ("AND"),
  },
}
