// The reference pages: one per entry point of each published package, rendered from the doc
// models that scripts/reference.mjs writes (API Extractor's `.api.json`, read back with
// `@microsoft/api-extractor-model`). Every export gets its declaration and its TSDoc; interfaces,
// classes and enums get each member too, so every option field has its text on a page.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import path from "node:path"
import model from "@microsoft/api-extractor-model"
import { generatedDir } from "./paths.js"
import { escapeHtml } from "./render.js"
import { renderDocNodes, TAG_LABELS } from "./tsdoc.js"

/**
 * @typedef {{ slug: string, title: string, packageName: string, subpath: string, file: string }} ReferencePage
 * @typedef {{ package: string, folder: string, entries: { subpath: string, name: string, wildcard: boolean }[], wildcardsLeftOut: number }} PackageEntries
 */

// A CommonJS package: its named exports are read from the default one.
const { ApiDeclaredItem, ApiDocumentedItem, ApiPackage } = model

const apiDir = () => path.join(generatedDir, "api")

/** @returns {PackageEntries[]} */
export function referencePackages() {
  if (!existsSync(apiDir())) {
    throw new Error("no doc models: run `node scripts/reference.mjs` (part of `pnpm build`) first")
  }
  return readdirSync(apiDir())
    .sort()
    .map((folder) => JSON.parse(readFileSync(path.join(apiDir(), folder, "entries.json"), "utf8")))
}

/** @returns {ReferencePage[]} */
export function referencePages() {
  return referencePackages().flatMap((pkg) =>
    pkg.entries.map((entry) => ({
      slug:
        entry.subpath === "." ? `reference/${pkg.folder}` : `reference/${pkg.folder}/${entry.name}`,
      title: entry.subpath === "." ? pkg.package : `${pkg.package}/${entry.subpath.slice(2)}`,
      packageName: pkg.package,
      subpath: entry.subpath,
      file: path.join(apiDir(), pkg.folder, `${entry.name}.api.json`),
    })),
  )
}

/**
 * The name an item is declared with. API Extractor renames a declaration whose name another one
 * of the package, or a global of TypeScript's libraries, already takes (`Awaited` → `Awaited_2`,
 * `Event` → `Event_2`): a name the reader can neither import nor find in the source. The
 * declaration's own text keeps the real one.
 *
 * @param {string} displayName the model's name
 * @param {string} declaration the item's declaration, as the model's excerpt gives it
 */
export function declaredName(displayName, declaration) {
  const renamed = /^(.+)_\d+$/.exec(displayName)
  if (!renamed) return displayName
  const declared =
    /\b(?:type|interface|class|function|const|let|var|enum|namespace)\s+([A-Za-z_$][\w$]*)/.exec(
      declaration,
    )
  return declared?.[1] === renamed[1] ? renamed[1] : displayName
}

/** @param {any} item an ApiItem */
const nameOf = (item) =>
  declaredName(item.displayName, item instanceof ApiDeclaredItem ? item.excerpt.text : "")

/** Kinds whose members are listed under them. */
const CONTAINERS = new Set(["Class", "Interface", "Enum", "Namespace"])

/**
 * @param {ReferencePage} page
 * @returns {{ html: string, headings: { depth: number, text: string, id: string }[], text: string, items: { id: string, name: string, summary: string }[] }}
 */
export function renderReference(page) {
  const cached = rendered.get(page.file)
  if (cached) return cached
  const result = renderEntry(page)
  rendered.set(page.file, result)
  return result
}

/** @type {Map<string, ReturnType<typeof renderEntry>>} */
const rendered = new Map()

/** @param {ReferencePage} page */
function renderEntry(page) {
  const apiPackage = ApiPackage.loadFromJsonFile(page.file)
  const entry = apiPackage.entryPoints[0]
  const parts = [`<h1 id="top">${escapeHtml(page.title)}</h1>`]
  parts.push(
    `<p>Import from <code>${escapeHtml(page.title)}</code>. Generated from the TSDoc of the package's published declarations.</p>`,
  )
  /** @type {{ depth: number, text: string, id: string }[]} */
  const headings = []
  /** @type {{ id: string, name: string, summary: string }[]} */
  const items = []
  // `$$__sveltets_…`: the helper types svelte-package writes into a component's declarations.
  const members = [...entry.members]
    .filter((item) => !item.displayName.startsWith("$$"))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)))
  if (members.length === 0) parts.push("<p>This entry point exports no types or values.</p>")
  /** @type {Set<string>} */
  const taken = new Set()
  /** An overload, or a type and a value of one name, gets `~2`, `~3`… after the first. */
  const unique = (/** @type {string} */ id) => {
    let candidate = id
    for (let n = 2; taken.has(candidate); n++) candidate = `${id}~${n}`
    taken.add(candidate)
    return candidate
  }
  for (const item of members) {
    const id = unique(nameOf(item))
    headings.push({ depth: 2, text: nameOf(item), id })
    parts.push(renderItem(item, id, 2, items))
    if (CONTAINERS.has(item.kind)) {
      for (const member of item.members) {
        const memberId = unique(`${id}.${member.displayName}`)
        parts.push(renderItem(member, memberId, 3, items))
      }
    }
  }
  return {
    html: parts.join("\n"),
    headings,
    text: items.map((i) => `${i.name} ${i.summary}`).join(" "),
    items,
  }
}

/**
 * @param {any} item an ApiItem
 * @param {string} id
 * @param {number} level
 * @param {{ id: string, name: string, summary: string }[]} items collects what the search indexes
 */
function renderItem(item, id, level, items) {
  const out = []
  const name = level === 2 ? nameOf(item) : `${id.split(".")[0]}.${item.displayName}`
  out.push(
    `<h${level} id="${escapeHtml(id)}" class="api-item"><code>${escapeHtml(name)}</code> <small class="kind">${escapeHtml(kindName(item.kind))}</small> <a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this item">#</a></h${level}>`,
  )
  if (item instanceof ApiDeclaredItem) {
    const signature = item.excerpt.text.trim()
    if (signature)
      out.push(`<pre class="language-ts signature"><code>${escapeHtml(signature)}</code></pre>`)
  }
  let summary = ""
  const comment = item instanceof ApiDocumentedItem ? item.tsdocComment : undefined
  if (comment) {
    const summaryHtml = renderDocNodes([comment.summarySection])
    summary = stripTags(summaryHtml)
    out.push(summaryHtml)
    if (comment.deprecatedBlock) {
      out.push(
        `<div class="deprecated"><strong>Deprecated.</strong> ${renderDocNodes([comment.deprecatedBlock.content])}</div>`,
      )
    }
    if (comment.remarksBlock) out.push(renderDocNodes([comment.remarksBlock.content]))
    const params = comment.params?.blocks ?? []
    if (params.length > 0) {
      out.push('<dl class="params">')
      for (const block of params) {
        out.push(
          `<dt><code>${escapeHtml(block.parameterName)}</code></dt><dd>${renderDocNodes([block.content])}</dd>`,
        )
      }
      out.push("</dl>")
    }
    if (comment.returnsBlock)
      out.push(
        `<p class="returns"><strong>Returns:</strong></p>${renderDocNodes([comment.returnsBlock.content])}`,
      )
    for (const block of comment.customBlocks ?? []) {
      const tag = block.blockTag.tagName.replace(/^@/, "")
      const label = TAG_LABELS[tag] ?? tag
      out.push(
        `<div class="block block-${escapeHtml(tag)}"><strong>${escapeHtml(label)}:</strong> ${renderDocNodes([block.content])}</div>`,
      )
    }
    for (const block of comment.seeBlocks ?? []) {
      out.push(
        `<div class="block block-see"><strong>See:</strong> ${renderDocNodes([block.content])}</div>`,
      )
    }
  } else {
    out.push(`<p class="undocumented">No documentation comment.</p>`)
  }
  items.push({ id, name, summary })
  return `<section class="api level-${level}">${out.join("\n")}</section>`
}

/** @param {string} kind */
function kindName(kind) {
  return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
}

/** @param {string} html */
const stripTags = (html) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim()
