// The code blocks of docs/deploying must compile: JavaScript and TypeScript through esbuild,
// wrangler's JSONC as JSON once its comments and trailing commas are gone, TOML by its few
// forms used there. A reader copies them as they are.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { transform } from "esbuild"
import { root } from "./targets.mjs"

const docs = path.join(root, "..", "docs", "deploying")

/** JSONC to JSON: drops `//` comments (outside strings) and trailing commas. */
function jsoncToJson(text) {
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

/** The TOML of these pages: `[table]` headers and `key = "string"` lines. */
function checkToml(text) {
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line || line.startsWith("#")) continue
    if (!/^\[[\w.-]+\]$/.test(line) && !/^[\w-]+ = "[^"]*"$/.test(line)) {
      throw new Error(`not TOML this check knows: ${line}`)
    }
  }
}

async function check(lang, code) {
  if (lang === "js" || lang === "ts") await transform(code, { loader: lang, format: "esm" })
  else if (lang === "jsonc" || lang === "json") JSON.parse(jsoncToJson(code))
  else if (lang === "toml") checkToml(code)
}

let passed = 0
let failed = 0
for (const file of readdirSync(docs).filter((name) => name.endsWith(".md"))) {
  const text = readFileSync(path.join(docs, file), "utf8")
  for (const match of text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)) {
    const [, lang, code] = match
    if (lang === "sh") continue
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
