// The code blocks of every Markdown file the site shows, each with what the check does with it.
import { readFileSync } from "node:fs"
import path from "node:path"
import { codeBlocks } from "../../../../scripts/code-blocks.mjs"
import { repoRoot } from "../../src/lib/content/paths.js"
import { sourceFiles } from "../../src/lib/content/site.js"

/**
 * Languages that are not program code the packages could compile, and why each is not checked.
 * Every block in one of them is counted under its language.
 */
export const NOT_COMPILED = {
  sh: "shell commands",
  bash: "shell commands",
  sql: "SQL for the reader's database (the adapters' tests run their schema)",
  text: "plain text",
  md: "Markdown (the docs' own markers, shown to authors)",
  "": "plain text (no language)",
}

/** @typedef {import("../../../../scripts/code-blocks.mjs").CodeBlock & { file: string, check: string, id: string }} Block */

const CHECKS = /** @type {Record<string, string>} */ ({
  ts: "ts",
  typescript: "ts",
  js: "js",
  javascript: "js",
  svelte: "svelte",
  json: "json",
  jsonc: "json",
  toml: "toml",
})

/**
 * @returns {Block[]} `check`: "skip" (a marker says why), "not-compiled" (a language of
 *   NOT_COMPILED), or the check that compiles it: ts, js, svelte, json, toml
 */
export function collectBlocks() {
  /** @type {Block[]} */
  const all = []
  for (const file of sourceFiles()) {
    const text = readFileSync(path.join(repoRoot, file), "utf8")
    for (const block of codeBlocks(text)) {
      const id = `${file.replace(/[^\w]+/g, "-")}-L${block.line}`
      let check = CHECKS[block.lang]
      if (block.markers.some((m) => m.kind === "skip")) check = "skip"
      else if (!check) {
        if (!(block.lang in NOT_COMPILED)) {
          throw new Error(
            `${file}:${block.line}: a \`${block.lang}\` block: no check knows this language (add it to NOT_COMPILED in apps/docs/scripts/code-check/collect.mjs, with why)`,
          )
        }
        check = "not-compiled"
      }
      all.push({ ...block, file, check, id })
    }
  }
  return all
}
