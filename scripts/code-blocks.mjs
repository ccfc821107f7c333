// The code blocks of a Markdown file, and the checks that need no compiler: shared by the docs
// site's check of every block (apps/docs/scripts/check-code.mjs) and the deployments' check of
// docs/deploying (deploy/check/docs.mjs).
//
// A block may be preceded by a hidden marker, an HTML comment GitHub and the site do not show:
//   <!-- check: skip <reason> -->     not compiled; the reason is required and printed
//   <!-- check: run -->               compiled, then run: Auth() answers GET /auth/providers
//   <!-- check: prelude <code> -->    hidden code compiled before the block (may span lines)
//   <!-- check: file <path> <code> --> a file beside the block that it imports (`./schema.ts`)
// Several may stand one after the other. apps/docs/README.md explains them to authors.

/**
 * @typedef {{ kind: "skip", reason: string } | { kind: "run" } | { kind: "prelude", code: string } | { kind: "file", path: string, code: string }} Marker
 * @typedef {{ lang: string, code: string, line: number, markers: Marker[] }} CodeBlock
 *   `line`: the 1-based line of the block's first line of code
 */

const FENCE = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/

/**
 * @param {string} markdown
 * @returns {CodeBlock[]}
 */
export function codeBlocks(markdown) {
  const lines = markdown.split("\n")
  /** @type {CodeBlock[]} */
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i])
    if (!open) continue
    const [, indent, fence, lang] = open
    const body = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const line = lines[j]
      if (
        line.trim().startsWith(fence[0].repeat(fence.length)) &&
        line.trim().replace(/[`~]/g, "") === ""
      )
        break
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart())
    }
    blocks.push({
      lang: lang.toLowerCase(),
      code: body.join("\n"),
      line: i + 2,
      markers: markersBefore(lines, i),
    })
    i = j
  }
  return blocks
}

/**
 * The `<!-- check: … -->` comments right above line `index` (blank lines between are allowed).
 * @param {string[]} lines
 * @param {number} index
 * @returns {Marker[]}
 */
function markersBefore(lines, index) {
  /** @type {Marker[]} */
  const markers = []
  let end = index - 1
  while (end >= 0) {
    while (end >= 0 && lines[end].trim() === "") end--
    if (end < 0 || !lines[end].trim().endsWith("-->")) break
    let start = end
    while (start >= 0 && !lines[start].includes("<!--")) start--
    if (start < 0) break
    const comment = lines
      .slice(start, end + 1)
      .join("\n")
      .trim()
    const match = /^<!--\s*check:\s*(skip|run|prelude|file)\b([\s\S]*?)-->$/.exec(comment)
    if (!match) break
    const [, kind, rest] = match
    if (kind === "skip") markers.unshift({ kind, reason: rest.trim() })
    else if (kind === "run") markers.unshift({ kind })
    else if (kind === "file") {
      const [, file = "", code = ""] = /^\s*(\S+)\s*([\s\S]*)$/.exec(rest) ?? []
      markers.unshift({ kind, path: file, code: code.trim() })
    } else markers.unshift({ kind: "prelude", code: rest.trim() })
    end = start - 1
  }
  return markers
}

/**
 * JSONC to JSON: drops `//` comments (outside strings) and trailing commas.
 * @param {string} text
 */
export function jsoncToJson(text) {
  let out = ""
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      out += char
      if (char === "\\") out += text[++i]
      else if (char === '"') inString = false
    } else if (char === '"') {
      inString = true
      out += char
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++
      out += "\n"
    } else out += char
  }
  return out.replace(/,(\s*[}\]])/g, "$1")
}

/**
 * The TOML the docs use: `[table]` headers and `key = "string"` lines.
 * @param {string} text
 */
export function checkToml(text) {
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line || line.startsWith("#")) continue
    if (!/^\[[\w.-]+\]$/.test(line) && !/^[\w-]+ = "[^"]*"$/.test(line)) {
      throw new Error(`not TOML this check knows: ${line}`)
    }
  }
}
