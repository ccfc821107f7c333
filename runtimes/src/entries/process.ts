/**
 * The program as Node.js, Bun and Deno run it: options as the one argument (JSON; Deno without
 * permissions can read its arguments, not its environment), results as one JSON line.
 */
import { runFlows, type Options } from "../program.js"

declare const Deno: { args: string[] } | undefined

const args = typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2)
const options = JSON.parse(args[0] ?? "{}") as Options
const results = await runFlows(options)
console.log(`LATCH-RESULTS ${JSON.stringify(results)}`)
