// TSDoc comments (the `@microsoft/tsdoc` nodes of API Extractor's model) to HTML. The comments in
// the packages are Markdown-flavoured prose: paragraphs, `code`, fenced examples, {@link}s and a
// few block tags (`@param`, `@returns`, `@defaultValue`, `@example`, `@deprecated`).
import { escapeHtml } from "./render.js"

/** How a block tag is titled on the page. */
export const TAG_LABELS = /** @type {Record<string, string>} */ ({
  default: "Default",
  defaultValue: "Default",
  example: "Example",
  throws: "Throws",
  see: "See",
  deprecated: "Deprecated",
})

/**
 * @param {any[]} nodes DocNodes
 * @returns {string}
 */
export function renderDocNodes(nodes) {
  return nodes.map(renderNode).join("")
}

/** @param {any} node */
function renderNode(node) {
  switch (node.kind) {
    case "Section":
      return renderDocNodes(node.getChildNodes())
    case "Paragraph": {
      const inner = renderDocNodes(node.getChildNodes()).trim()
      return inner ? `<p>${inner}</p>` : ""
    }
    case "PlainText":
      return inlineMarkdown(node.text)
    case "SoftBreak":
      return " "
    case "CodeSpan":
      return `<code>${escapeHtml(node.code)}</code>`
    case "FencedCode":
      return `<pre class="language-${escapeHtml(node.language || "ts")}"><code>${escapeHtml(node.code)}</code></pre>`
    case "EscapedText":
      return escapeHtml(node.decodedText)
    case "ErrorText":
      return inlineMarkdown(node.text)
    case "LinkTag": {
      if (node.urlDestination) {
        return `<a href="${escapeHtml(node.urlDestination)}">${escapeHtml(node.linkText || node.urlDestination)}</a>`
      }
      const target = node.codeDestination?.memberReferences
        ?.map((/** @type {any} */ r) => r.memberIdentifier?.identifier)
        .join(".")
      return `<code>${escapeHtml(node.linkText || target || "")}</code>`
    }
    case "InlineTag":
      return escapeHtml(node.tagContent ?? "")
    case "HtmlStartTag":
    case "HtmlEndTag":
      return ""
    case "BlockTag": {
      // A tag TSDoc does not define (`@default`) stays inline in the section it ends: label it.
      const tag = String(node.tagName).replace(/^@/, "")
      return ` <br /><strong class="tag">${escapeHtml(TAG_LABELS[tag] ?? tag)}:</strong> `
    }
    default:
      return typeof node.getChildNodes === "function" ? renderDocNodes(node.getChildNodes()) : ""
  }
}

/**
 * The Markdown that TSDoc leaves as plain text: `**bold**` and `_emphasis_` spans. Escaped first.
 * @param {string} text
 */
function inlineMarkdown(text) {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|\W)_([^_]+)_(?=\W|$)/g, "$1<em>$2</em>")
}
