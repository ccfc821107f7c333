/** bench/password-runtimes.mjs's program on Node.js, Bun and Deno: the count as the argument. */
import { hashBench } from "../hash-bench.js"

declare const Deno: { args: string[] } | undefined

const args = typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2)
try {
  console.log(`LATCH-RESULTS ${JSON.stringify(await hashBench(Number(args[0])))}`)
} catch (error) {
  console.log(`LATCH-RESULTS ${JSON.stringify({ error: String(error) })}`)
}
// Alive a little longer: the bench reads the process's peak memory while it runs.
await new Promise((resolve) => setTimeout(resolve, 300))
