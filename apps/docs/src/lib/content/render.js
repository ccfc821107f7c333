// A page's Markdown to HTML. Three things differ from plain `marked`: headings keep the ids
// GitHub gives them (and a page cut from a `##` section starts at <h1>), links between the
// repository's files become links between the site's pages, and the authors' hidden check
// markers (`<!-- check: … -->`, see apps/docs/README.md) are left out of the page.
import path from "node:path"
import { Marked } from "marked"
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
 * @param {{ source: string, parts: number[] }} page
 * @returns {{ html: string, headings: { depth: number, text: string, id: string }[], text: string }}
 *   the HTML, the page's headings (for its table of contents) and its plain text (for the search)
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
  return { html, headings, text: plainText(tokens) }
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
