// JSON, JSONC and TOML blocks: parsed, with the deployments' own helpers.
import { checkToml, jsoncToJson } from "../../../../scripts/code-blocks.mjs"

/**
 * @param {import("./collect.mjs").Block} block
 * @returns {string[]} errors
 */
export function checkFormat(block) {
  try {
    if (block.check === "json")
      JSON.parse(block.lang === "jsonc" ? jsoncToJson(block.code) : block.code)
    else checkToml(block.code)
    return []
  } catch (error) {
    return [`${block.file}:${block.line}: ${/** @type {Error} */ (error).message}`]
  }
}
