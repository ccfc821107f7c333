// A page's Markdown to HTML. Three things differ from plain `marked`: headings keep the ids
// GitHub gives them (and a page cut from a `##` section starts at <h1>), links between the
// repository's files become links between the site's pages, and the authors' hidden check
// markers (`<!-- check: … -->`, see apps/docs/README.md) are left out of the page.
import path from "node:path"
import { Marked } from "marked"
import { headingText } from "./slug.js"
import { readSource } from "./source.js"
import { locate } from "./site.js"

/** @param {string} text */
export const escapeHtml = (text) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")

/**
 * A link as written in `file`, as the site serves it: `href` for the page, or `undefined` for a
 * file of the repository that is not on the site (the page then shows the path as text).
 * @param {string} file the Markdown file the link is in
 * @param {string} href
 * @returns {string | undefined}
 */
export function siteHref(file, href) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href
  const [target, anchor] = href.split("#")
  const resolved = target
    ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target))
    : file
  const place = locate(resolved, anchor ? decodeURIComponent(anchor) : undefined)
  if (!place) return undefined
  return `/${place.slug}${place.anchor ? `#${place.anchor}` : ""}`
}

/**
 * @param {{ source: string, parts: number[], title: string }} page
 * @returns {{ html: string, headings: { depth: number, text: string, id: string }[], text: string, sections: { id: string | null, title: string, text: string }[] }}
 *   the HTML, the page's headings (for its table of contents), its plain text and its sections
 *   (for the search)
 */
export function renderPage(page) {
  const source = readSource(page.source)
  const tokens = page.parts.flatMap((index) => source.parts[index].tokens)
  // A page cut from one `##` section: that heading is the page's title.
  const shift = page.parts.length === 1 && page.parts[0] > 0 ? 1 : 0
  const file = page.source
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens: inline, depth, ...rest }) {
        const id = /** @type {{ id?: string }} */ (rest).id ?? ""
        const level = Math.max(1, depth - shift)
        const body = this.parser.parseInline(inline)
        return `<h${level} id="${escapeHtml(id)}">${body} <a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a></h${level}>\n`
      },
      link({ href, title, tokens: inline }) {
        const body = this.parser.parseInline(inline)
        const target = siteHref(file, href)
        if (target === undefined) {
          return `<span class="repo-path" title="${escapeHtml(`In the repository: ${href}`)}">${body}</span>`
        }
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : ""
        return `<a href="${escapeHtml(target)}"${titleAttr}>${body}</a>`
      },
      code({ text, lang }) {
        const language = (lang ?? "").split(/\s+/)[0]
        const cls = language ? ` class="language-${escapeHtml(language)}"` : ""
        return `<pre${cls}><code>${escapeHtml(text)}</code></pre>\n`
      },
      html({ text }) {
        return /^\s*<!--\s*check[:\s]/.test(text) ? "" : text
      },
    },
  })
  const html = marked.parser(Object.assign([...tokens], { links: {} }))
  const headings = source.headings
    .filter((h) => page.parts.includes(h.part))
    .map((h) => ({ depth: Math.max(1, h.depth - shift), text: h.text, id: h.id }))
  return { html, headings, text: plainText(tokens), sections: sectionsOf(tokens, page.title) }
}

/**
 * The page cut at its headings, for the search: each part's heading id, title and text.
 * @param {any[]} tokens
 * @param {string} pageTitle
 * @returns {{ id: string | null, title: string, text: string }[]}
 */
function sectionsOf(tokens, pageTitle) {
  /** @type {{ id: string | null, title: string, tokens: any[] }[]} */
  const sections = []
  let current = {
    id: /** @type {string | null} */ (null),
    title: pageTitle,
    tokens: /** @type {any[]} */ ([]),
  }
  for (const token of tokens) {
    if (token.type !== "heading") {
      current.tokens.push(token)
      continue
    }
    // The heading that opens the page is its title: the first section is the page itself.
    if (sections.length === 0 && current.tokens.length === 0) continue
    sections.push(current)
    current = { id: token.id, title: headingText(token), tokens: [] }
  }
  sections.push(current)
  return sections.map((s) => ({ id: s.id, title: s.title, text: plainText(s.tokens) }))
}

/**
 * The words of a page for the search index: prose, headings, tables and code.
 * @param {any[]} tokens
 * @returns {string}
 */
function plainText(tokens) {
  const out = []
  for (const token of tokens) {
    if (token.type === "html") continue
    if (token.tokens) out.push(plainText(token.tokens))
    else if (token.items) out.push(plainText(token.items))
    else if (token.type === "table") {
      for (const cell of [...token.header, ...token.rows.flat()]) out.push(plainText(cell.tokens))
    } else if (typeof token.text === "string") out.push(token.text)
  }
  return out.join(" ").replace(/\s+/g, " ")
}
