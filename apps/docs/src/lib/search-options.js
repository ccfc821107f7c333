// The search index's options: the same when the index is built (at build time) and when the
// browser loads it, as MiniSearch requires.

/**
 * How much a result weighs by where it is (its id is its URL). The reference has thousands of
 * short items, and BM25 favours a short text, so a word the guides explain would otherwise list
 * the reference's items first: an item weighs half, a member of one (`#Type.member`) half again.
 * A page's opening (no anchor) weighs more than a section of it, for the broad words its title
 * has. `check-search.mjs` holds known queries to the pages that answer them.
 * @param {string} id
 */
export function resultWeight(id) {
  const anchor = id.indexOf("#")
  if (id.startsWith("/reference/")) {
    return anchor >= 0 && id.slice(anchor).includes(".") ? 0.25 : 0.5
  }
  return anchor < 0 ? 1.5 : 1
}

/** @type {import("minisearch").Options} */
export const searchOptions = {
  fields: ["title", "text"],
  storeFields: ["title", "section", "url"],
  searchOptions: {
    boost: { title: 3 },
    boostDocument: resultWeight,
    prefix: true,
    fuzzy: 0.15,
    combineWith: /** @type {const} */ ("AND"),
  },
}
