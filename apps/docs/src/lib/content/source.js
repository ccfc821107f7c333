// One Markdown file of the repository, read and cut into the parts the site's pages are made of:
// the intro (everything before the first `##`) and one part per `##` section. Heading ids are
// computed once over the whole file, in order, as GitHub computes them, so that a link written
// for GitHub (`README.md#database-sessions`) finds the same heading on the site.
import { readFileSync } from "node:fs"
import path from "node:path"
import { Lexer } from "marked"
import { repoRoot } from "./paths.js"
import { headingText, Slugger } from "./slug.js"

/**
 * @typedef {import("marked").Token} Token
 * @typedef {{ heading: string | null, id: string | null, tokens: Token[] }} Part
 * @typedef {{
 *   file: string,
 *   title: string,
 *   parts: Part[],
 *   ids: Set<string>,
 *   headings: { depth: number, text: string, id: string, part: number }[],
 * }} Source
 */

/** @type {Map<string, Source>} */
const cache = new Map()

/**
 * @param {string} file a path relative to the repository's root, e.g. `packages/core/README.md`
 * @returns {Source}
 */
export function readSource(file) {
  const cached = cache.get(file)
  if (cached) return cached
  const markdown = readFileSync(path.join(repoRoot, file), "utf8")
  const tokens = new Lexer({ gfm: true }).lex(markdown)
  const slugger = new Slugger()
  /** @type {Part[]} */
  const parts = [{ heading: null, id: null, tokens: [] }]
  /** @type {Source["headings"]} */
  const headings = []
  let title = file
  for (const token of tokens) {
    if (token.type === "heading") {
      const text = headingText(/** @type {import("marked").Tokens.Heading} */ (token))
      const id = slugger.slug(text)
      // The renderer reads the id from the token: the same one in every page it lands on.
      Object.assign(token, { id })
      if (token.depth === 1 && title === file) title = text
      if (token.depth === 2) parts.push({ heading: text, id, tokens: [] })
      headings.push({ depth: token.depth, text, id, part: parts.length - 1 })
    }
    parts[parts.length - 1].tokens.push(token)
  }
  const source = { file, title, parts, ids: new Set(headings.map((h) => h.id)), headings }
  cache.set(file, source)
  return source
}
