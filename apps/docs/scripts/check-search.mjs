// The built search index (build/search-index.json) loads as the browser loads it, and finds known
// terms on the pages that explain them: a prose term, an error code, a provider, a deployment
// target, and a function and an option of the generated reference.
import { readFileSync } from "node:fs"
import path from "node:path"
import MiniSearch from "minisearch"
import { searchOptions } from "../src/lib/search-options.js"
import { buildDir } from "./site-files.mjs"

/**
 * A query, and a URL that must be among its first five results: a page's section, an error
 * code, a deployment target, a provider, a function and an option of the reference.
 */
const EXPECTED = [
  ["OAuthAccountNotLinked", "/errors#sign-in-page-codes"],
  ["secret rotation", "/concepts/sessions#secret-rotation"],
  ["wrangler", "/deploying/cloudflare#setup-workers"],
  ["Keycloak", "/reference/core/providers-keycloak#Keycloak"],
  ["getSession", "/reference/core#getSession"],
  ["updateAge", "/reference/core#SessionOptions.updateAge"],
  ["sv add", "/getting-started/sv-add"],
  ["two-factor", "/concepts/two-factor"],
  ["passkey", "/recipes/passkeys"],
  ["security key", "/concepts/two-factor#security-keys-as-a-second-factor"],
  ["autofill", "/sveltekit/components#a-passkey-form-with-the-browsers-autofill"],
]

const index = MiniSearch.loadJSON(
  readFileSync(path.join(buildDir, "search-index.json"), "utf8"),
  searchOptions,
)
let passed = 0
let failed = 0
for (const [query, url] of EXPECTED) {
  const results = index.search(query).slice(0, 5)
  if (results.some((r) => r.url === url)) passed++
  else {
    failed++
    console.log(
      `✗ "${query}": ${url} is not in the first five results: ${results.map((r) => r.url).join(", ") || "none"}`,
    )
  }
}
console.log(`search (${index.documentCount} documents): ${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
