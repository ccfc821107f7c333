// Every link of the built site that stays on the site reaches a page that exists, and every
// `#anchor` an element of that page. Links to other sites are not followed (the check runs
// offline). Prints each broken link with the page it is on.
import { readFileSync } from "node:fs"
import path from "node:path"
import { buildDir, fileForRequestPath, htmlFiles } from "./site-files.mjs"

/** @type {Map<string, Set<string>>} */
const idsCache = new Map()
/** @param {string} file */
function idsOf(file) {
  let ids = idsCache.get(file)
  if (!ids) {
    ids = new Set(
      [...readFileSync(file, "utf8").matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1])),
    )
    idsCache.set(file, ids)
  }
  return ids
}

/** @param {string} text */
const decode = (text) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")

const broken = []
let checked = 0
const pages = htmlFiles()
for (const file of pages) {
  const html = readFileSync(file, "utf8")
  const page = `/${path.relative(buildDir, file).replace(/(index)?\.html$/, "")}`
  for (const match of html.matchAll(/\shref="([^"]*)"/g)) {
    const href = decode(match[1])
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) continue
    checked++
    const url = new URL(href, `http://site${page}`)
    const target =
      url.pathname === page || href.startsWith("#") ? file : fileForRequestPath(url.pathname)
    if (!target) {
      broken.push(`${page}: ${href} (no such page)`)
      continue
    }
    const anchor = decodeURIComponent(url.hash.slice(1))
    if (anchor && target.endsWith(".html") && !idsOf(target).has(anchor)) {
      broken.push(`${page}: ${href} (no #${anchor} on that page)`)
    }
  }
}
for (const line of broken) console.log(`✗ ${line}`)
console.log(
  `links: ${checked - broken.length} passed, ${broken.length} failed (${pages.length} pages)`,
)
process.exit(broken.length ? 1 : 0)
