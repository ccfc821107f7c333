// The code blocks of docs/deploying must compile: JavaScript and TypeScript through esbuild,
// wrangler's JSONC as JSON once its comments and trailing commas are gone, TOML by its few
// forms used there. A reader copies them as they are. (The docs site's check, apps/docs, also
// type-checks them against the packages; this one runs with the deployments alone.)
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { transform } from "esbuild"
import { checkToml, codeBlocks, jsoncToJson } from "../../scripts/code-blocks.mjs"
import { root } from "./targets.mjs"

const docs = path.join(root, "..", "docs", "deploying")

async function check(lang, code) {
  if (lang === "js" || lang === "ts") await transform(code, { loader: lang, format: "esm" })
  else if (lang === "jsonc" || lang === "json") JSON.parse(jsoncToJson(code))
  else if (lang === "toml") checkToml(code)
}

let passed = 0
let failed = 0
for (const file of readdirSync(docs).filter((name) => name.endsWith(".md"))) {
  const text = readFileSync(path.join(docs, file), "utf8")
  for (const { lang, code, markers } of codeBlocks(text)) {
    if (lang === "sh" || lang === "" || markers.some((m) => m.kind === "skip")) continue
    try {
      await check(lang, code)
      passed++
    } catch (error) {
      failed++
      console.log(`✗ docs/deploying/${file}, a ${lang} block: ${error.message.split("\n")[0]}`)
    }
  }
}
console.log(`docs/deploying code blocks: ${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
