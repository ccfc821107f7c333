// Every page of the site — the Markdown pages of site.js, the generated reference and its index —
// with what each renders to, and the navigation. The routes, the search index and the checks all
// read this one list.
import { escapeHtml, renderPage } from "./render.js"
import { referencePackages, referencePages, renderReference } from "./reference.js"
import { pages } from "./site.js"

/**
 * @typedef {{ depth: number, text: string, id: string }} Heading
 * @typedef {{ html: string, headings: Heading[], text: string }} Rendered
 * @typedef {{ slug: string, title: string, section: string, nav: boolean, source?: string, render: () => Rendered }} SitePage
 */

/** @type {SitePage[] | undefined} */
let cache

/** @returns {SitePage[]} */
export function allPages() {
  if (cache) return cache
  /** @type {SitePage[]} */
  const list = pages().map((page) => ({
    slug: page.slug,
    title: page.title,
    section: page.section,
    source: page.source,
    nav: true,
    render: () => renderPage(page),
  }))
  list.push({
    slug: "reference",
    title: "Reference",
    section: "Reference",
    nav: true,
    render: referenceIndex,
  })
  for (const page of referencePages()) {
    list.push({
      slug: page.slug,
      title: page.title,
      section: "Reference",
      // The ~100 provider entry points are listed on the reference's index, not in the sidebar.
      nav: !page.subpath.startsWith("./providers/"),
      render: () => renderReference(page),
    })
  }
  cache = list
  return list
}

/** @param {string} slug */
export const findPage = (slug) => allPages().find((p) => p.slug === slug)

/** The sidebar: sections in order, each with its pages. */
export function navigation() {
  /** @type {{ title: string, pages: { slug: string, title: string }[] }[]} */
  const nav = []
  for (const page of allPages()) {
    if (!page.nav) continue
    let section = nav.find((s) => s.title === page.section)
    if (!section) nav.push((section = { title: page.section, pages: [] }))
    section.pages.push({ slug: page.slug, title: page.title })
  }
  return nav
}

/** @returns {Rendered} */
function referenceIndex() {
  const out = [
    `<h1 id="reference">Reference</h1>`,
    `<p>Every exported function, class, type and option of the published packages, with the documentation comment it ships with. These pages are generated at build time from the packages' declarations (API Extractor's doc model), so they say what the installed version says.</p>`,
  ]
  /** @type {Heading[]} */
  const headings = []
  const byPackage = new Map()
  for (const page of referencePages()) {
    if (!byPackage.has(page.packageName)) byPackage.set(page.packageName, [])
    byPackage.get(page.packageName).push(page)
  }
  for (const pkg of referencePackages()) {
    const id = pkg.folder
    headings.push({ depth: 2, text: pkg.package, id })
    out.push(`<h2 id="${escapeHtml(id)}">${escapeHtml(pkg.package)}</h2>`)
    const list = byPackage.get(pkg.package) ?? []
    const main = list.filter(
      (/** @type {import("./reference.js").ReferencePage} */ p) =>
        !p.subpath.startsWith("./providers/"),
    )
    const providers = list.filter((/** @type {import("./reference.js").ReferencePage} */ p) =>
      p.subpath.startsWith("./providers/"),
    )
    out.push("<ul>")
    for (const page of main) {
      out.push(`<li><a href="/${page.slug}"><code>${escapeHtml(page.title)}</code></a></li>`)
    }
    out.push("</ul>")
    if (providers.length > 0) {
      out.push(`<p>Providers (${providers.length}), one entry point each:</p><ul class="columns">`)
      for (const page of providers) {
        out.push(
          `<li><a href="/${page.slug}"><code>${escapeHtml(page.subpath.slice(2))}</code></a></li>`,
        )
      }
      out.push("</ul>")
    }
    if (pkg.wildcardsLeftOut > 0) {
      out.push(
        `<p>Its <code>./providers/&lt;id&gt;</code> entry points (${pkg.wildcardsLeftOut}) re-export <code>@latch/core</code>'s providers: see <a href="/reference#core">@latch/core</a>'s list above for each one's options.</p>`,
      )
    }
  }
  return { html: out.join("\n"), headings, text: out.join(" ").replace(/<[^>]+>/g, " ") }
}
