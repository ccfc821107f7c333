import adapter from "@sveltejs/adapter-static"
import { vitePreprocess } from "@sveltejs/vite-plugin-svelte"

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  kit: {
    // Every page is prerendered: the site is a folder of HTML files any static host serves.
    adapter: adapter({ pages: "build", assets: "build", strict: true }),
    prerender: {
      // The pages are listed by the [...slug] route's `entries()`, not discovered by crawling:
      // a page no link reaches is built all the same, and a broken link fails the link check
      // (scripts/check-links.mjs) with the page and the target named, rather than the build.
      crawl: false,
      entries: ["*", "/search-index.json"],
    },
  },
}
