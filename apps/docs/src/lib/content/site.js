// The site's table of contents: which Markdown file (or which `##` section of it) each page shows.
// The files stay the single source: a page is cut from them at build time, never copied. A long
// README is split by `split`: its intro and each `##` section not claimed by another page become
// pages of their own, so a new section shows up on the site without an edit here.
import { readSource } from "./source.js"
import { slugify } from "./slug.js"

/**
 * @typedef {{ slug: string, source: string, heading?: string, intro?: boolean, title?: string }} PageSpec
 *   a whole file, its intro (`intro: true`), or one `##` section (`heading`)
 * @typedef {{ split: string, prefix: string, introTitle?: string }} SplitSpec
 * @typedef {{ title: string, items: (PageSpec | SplitSpec)[] }} SectionSpec
 * @typedef {{ slug: string, title: string, section: string, source: string, parts: number[] }} Page
 */

/** @type {SectionSpec[]} */
export const sections = [
  {
    title: "Getting started",
    items: [
      { slug: "", source: "README.md", intro: true, title: "Latch" },
      { slug: "getting-started", source: "README.md", heading: "Quick start in a SvelteKit app" },
      {
        slug: "getting-started/sv-add",
        source: "packages/sv/README.md",
        title: "npx sv add @latch",
      },
    ],
  },
  {
    title: "Concepts",
    items: [
      { slug: "concepts/sessions", source: "packages/core/README.md", heading: "Sessions" },
      {
        slug: "concepts/account-security",
        source: "packages/core/README.md",
        heading: "Account changes and re-authentication",
      },
      {
        slug: "concepts/two-factor",
        source: "packages/core/README.md",
        heading: "Two-factor authentication",
      },
      { slug: "concepts/cookies", source: "packages/core/README.md", heading: "Cookies" },
    ],
  },
  {
    title: "Providers",
    items: [
      { slug: "providers", source: "docs/providers.md" },
      {
        slug: "providers/configuring",
        source: "packages/core/README.md",
        heading: "Providers",
        title: "Configuring providers",
      },
    ],
  },
  {
    title: "Recipes",
    items: [
      {
        slug: "recipes/protecting-routes",
        source: "packages/sveltekit/README.md",
        heading: "Protecting routes",
      },
      {
        slug: "recipes/password-accounts",
        source: "packages/sveltekit/README.md",
        heading: "Password accounts",
      },
      {
        slug: "recipes/two-factor",
        source: "packages/sveltekit/README.md",
        heading: "Two-factor authentication",
      },
      {
        slug: "recipes/confirm-it-is-you",
        source: "packages/sveltekit/README.md",
        heading: "Confirm it is you (re-authentication)",
      },
      {
        slug: "recipes/live-session",
        source: "packages/sveltekit/README.md",
        heading: "A live session in the browser (@latch/sveltekit/session)",
      },
      {
        slug: "recipes/remote-functions",
        source: "packages/sveltekit/README.md",
        heading: "Remote functions (@latch/sveltekit/remote)",
      },
      { slug: "recipes/passkeys", source: "packages/sveltekit/README.md", heading: "Passkeys" },
    ],
  },
  {
    title: "@latch/sveltekit",
    items: [{ split: "packages/sveltekit/README.md", prefix: "sveltekit" }],
  },
  { title: "@latch/core", items: [{ split: "packages/core/README.md", prefix: "core" }] },
  {
    title: "Database adapters",
    items: [
      { slug: "adapters/pg-adapter", source: "packages/pg-adapter/README.md" },
      { slug: "adapters/drizzle-adapter", source: "packages/drizzle-adapter/README.md" },
      { slug: "adapters/redis-store", source: "packages/redis-store/README.md" },
      { slug: "adapters/testing", source: "packages/adapter-test/README.md" },
    ],
  },
  {
    title: "Deploying",
    items: [
      { slug: "deploying", source: "docs/deploying/README.md" },
      { slug: "deploying/node", source: "docs/deploying/node.md" },
      { slug: "deploying/cloudflare", source: "docs/deploying/cloudflare.md" },
      { slug: "deploying/vercel", source: "docs/deploying/vercel.md" },
      { slug: "deploying/netlify", source: "docs/deploying/netlify.md" },
      { slug: "deploying/bun", source: "docs/deploying/bun.md" },
      { slug: "deploying/deno", source: "docs/deploying/deno.md" },
    ],
  },
  {
    title: "Migrating",
    items: [{ slug: "migrating-from-auth-js", source: "docs/migrating-from-auth-js.md" }],
  },
  {
    title: "Errors, security, stability",
    items: [
      { slug: "errors", source: "docs/errors.md" },
      { slug: "security", source: "SECURITY.md" },
      { slug: "stability", source: "docs/stability.md" },
      { slug: "reliability", source: "docs/reliability.md" },
      { slug: "performance", source: "bench/README.md" },
    ],
  },
  {
    title: "The project",
    items: [
      { split: "README.md", prefix: "project" },
      { slug: "project/demo", source: "apps/demo/README.md" },
      { slug: "project/deployment-checks", source: "deploy/README.md" },
      { slug: "project/runtimes", source: "runtimes/README.md" },
      { slug: "project/api-reports", source: "tools/api-report/README.md" },
      { slug: "project/writing-the-docs", source: "apps/docs/README.md" },
    ],
  },
  {
    // The generated reference (reference.js) joins this section after these pages.
    title: "Reference",
    items: ["core", "pg-adapter", "drizzle-adapter"].map((name) => ({
      slug: `reference/formats/${name}`,
      source: `packages/${name}/api/formats.api.md`,
      heading: `Stored and wire formats of "@latch/${name}"`,
      title: `Formats: @latch/${name}`,
    })),
  },
]

/**
 * Files a link may point to that are not pages of their own: the page that stands for them.
 * @type {Record<string, string>}
 */
export const aliases = { "docs/README.md": "" }

/** @type {Page[] | undefined} */
let pagesCache

/** Every Markdown page of the site, in the order of the navigation. */
export function pages() {
  if (pagesCache) return pagesCache
  /** @type {Map<string, Set<number>>} parts of each file that an explicit page shows */
  const claimed = new Map()
  const claim = (/** @type {string} */ file, /** @type {number} */ part) => {
    if (!claimed.has(file)) claimed.set(file, new Set())
    claimed.get(file)?.add(part)
  }
  /** @type {Map<PageSpec, Page>} */
  const explicit = new Map()
  for (const section of sections) {
    for (const item of section.items) {
      if ("split" in item) continue
      const source = readSource(item.source)
      let parts
      if (item.intro) parts = [0]
      else if (item.heading) {
        const index = source.parts.findIndex((p) => p.heading === item.heading)
        if (index < 0)
          throw new Error(`${item.source} has no "## ${item.heading}" for /${item.slug}`)
        parts = [index]
      } else parts = source.parts.map((_, i) => i)
      for (const part of parts) claim(item.source, part)
      const title = item.title ?? (item.heading || source.title)
      explicit.set(item, {
        slug: item.slug,
        title,
        section: section.title,
        source: item.source,
        parts,
      })
    }
  }
  /** @type {Page[]} */
  const list = []
  for (const section of sections) {
    for (const item of section.items) {
      if (!("split" in item)) {
        const page = explicit.get(item)
        if (page) list.push(page)
        continue
      }
      const source = readSource(item.split)
      const taken = claimed.get(item.split) ?? new Set()
      source.parts.forEach((part, index) => {
        if (taken.has(index)) return
        if (index === 0) {
          list.push({
            slug: item.prefix,
            title: item.introTitle ?? source.title,
            section: section.title,
            source: item.split,
            parts: [0],
          })
        } else {
          list.push({
            slug: `${item.prefix}/${slugify(part.heading ?? "")}`,
            title: part.heading ?? "",
            section: section.title,
            source: item.split,
            parts: [index],
          })
        }
      })
    }
  }
  const seen = new Set()
  for (const page of list) {
    if (seen.has(page.slug)) throw new Error(`two pages at /${page.slug}`)
    seen.add(page.slug)
  }
  pagesCache = list
  return list
}

/** The Markdown files the site shows. */
export const sourceFiles = () => [...new Set(pages().map((p) => p.source))]

/**
 * Where a link to a file of the repository (and one of its headings) lands on the site, or
 * `undefined` when the file is not on the site.
 * @param {string} file relative to the repository's root
 * @param {string} [anchor] a heading id, without `#`
 * @returns {{ slug: string, anchor?: string } | undefined}
 */
export function locate(file, anchor) {
  if (file in aliases) return { slug: aliases[file], anchor }
  const candidates = pages().filter((p) => p.source === file)
  if (candidates.length === 0) return undefined
  if (!anchor) {
    const intro = candidates.find((p) => p.parts.includes(0)) ?? candidates[0]
    return { slug: intro.slug }
  }
  const heading = readSource(file).headings.find((h) => h.id === anchor)
  if (!heading) return { slug: candidates[0].slug, anchor }
  const page = candidates.find((p) => p.parts.includes(heading.part)) ?? candidates[0]
  return { slug: page.slug, anchor }
}
