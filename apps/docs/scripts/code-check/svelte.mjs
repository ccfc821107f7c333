// The Svelte blocks, through the Svelte compiler (server and client output), as the app's build
// would compile them: markup, runes and `<script lang="ts">` (Svelte 5 reads TypeScript's syntax).
import { compile } from "svelte/compiler"

/**
 * @param {import("./collect.mjs").Block} block
 * @returns {string[]} errors, each "file:line: message"
 */
export function compileSvelte(block) {
  const filename = `${block.id}.svelte`
  try {
    compile(block.code, { filename, generate: "server" })
    compile(block.code, { filename, generate: "client" })
    return []
  } catch (error) {
    const e = /** @type {{ message: string, start?: { line: number } }} */ (error)
    const line = e.start ? block.line + e.start.line - 1 : block.line
    return [`${block.file}:${line}: ${e.message.split("\n")[0]}`]
  }
}
