// The cost of one password hash with the Password provider's default scrypt (N = 2^15, r = 8,
// p = 3), on its two paths on this Node.js: node:crypto's scrypt (native, on libuv's thread pool)
// and the portable one (plain JavaScript, core's romix.ts, which runtimes without a usable
// node:crypto run: Cloudflare Workers without nodejs_compat, Vercel's edge runtime). Each path
// runs in fresh child processes, alternately, round after round; the portable one in a process
// whose `process.getBuiltinModule` was removed before @latch/core loaded, as on those runtimes.
// Time: the median milliseconds of a derivation, and the median of per-round ratios. Memory: how
// far the first derivation raised the process's peak resident memory (the kernel's maxRSS), and
// how far a whole round did. `node password-hash.mjs` prints the results; `node index.mjs` also
// writes them into README.md. The derivations themselves are lib/hash-timings.mjs, which runs
// in any runtime.
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { timeDerivations } from "./lib/hash-timings.mjs"
import {
  BenchError,
  isMain,
  median,
  medianInterval,
  QUICK,
  ratio,
  ratios,
  runAsScript,
} from "./lib/common.mjs"

export { timeDerivations }

const ROUNDS = QUICK ? 3 : 7
const PER_ROUND = QUICK ? 3 : 5
const MiB = 2 ** 20
/** The goal: one derivation within the memory of the smallest runtime's share, on both paths. */
const MEMORY_GOAL_MIB = 64

/** How each path is made to run: the portable one in a process without node:crypto's loader. */
const PATHS = {
  "node:crypto": [],
  portable: ["--import", "data:text/javascript,delete process.getBuiltinModule"],
}

const peakBytes = () => process.resourceUsage().maxRSS * 1024

/**
 * `work`, and the most memory it took, sampled every 2 ms (the portable path yields to the event
 * loop every 10 ms, node:crypto's runs on another thread, so the samples see a derivation's
 * allocation while it is held): the rise of resident memory (what OpenSSL allocates shows only
 * there), or of JavaScript's array buffers (the portable path's table, which can reuse pages an
 * earlier one left resident), whichever is more.
 */
async function withMemoryRise(work) {
  const base = process.memoryUsage()
  let rss = base.rss
  let buffers = base.arrayBuffers
  const sample = () => {
    const now = process.memoryUsage()
    rss = Math.max(rss, now.rss)
    buffers = Math.max(buffers, now.arrayBuffers)
  }
  const timer = setInterval(sample, 2)
  const result = await work()
  clearInterval(timer)
  sample()
  return { result, rise: Math.max(rss - base.rss, buffers - base.arrayBuffers) }
}

/**
 * In a child: derivations one at a time, each with the memory it raised the process by; the
 * first apart, with the rise of the process's peak (loading the path's code and its first
 * allocation). Its figures as JSON on stdout.
 */
async function child(rounds) {
  const start = peakBytes()
  const first = await timeDerivations({ rounds: 1, warmup: 0 })
  const firstPeak = peakBytes() - start
  const ms = []
  const rises = []
  for (let i = 0; i < rounds; i++) {
    const { result, rise } = await withMemoryRise(() => timeDerivations({ rounds: 1, warmup: 0 }))
    ms.push(result.ms[0])
    rises.push(rise)
  }
  process.stdout.write(
    JSON.stringify({ path: first.path, ms, rises, firstMs: first.ms[0], firstPeak }),
  )
}

function runChild(path) {
  const script = fileURLToPath(import.meta.url)
  const result = spawnSync(
    process.execPath,
    [...PATHS[path], script, "--child", String(PER_ROUND)],
    { encoding: "utf8", timeout: 300_000 },
  )
  if (result.status !== 0)
    throw new BenchError(`the ${path} child failed: ${result.stderr || result.signal}`)
  const figures = JSON.parse(result.stdout)
  if (figures.path !== path)
    throw new BenchError(`the ${path} child ran on ${figures.path}: the path was not forced`)
  return figures
}

const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`

export async function runPasswordHash() {
  const started = performance.now()
  const figures = { "node:crypto": [], portable: [] }
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first: the machine's other work falls on both alike.
    const order = round % 2 ? ["portable", "node:crypto"] : ["node:crypto", "portable"]
    for (const path of order) figures[path].push(runChild(path))
  }
  const seconds = (performance.now() - started) / 1000
  const perRound = (path) => figures[path].map((f) => median(f.ms))
  const slower = ratios(perRound("portable"), perRound("node:crypto"))
  const stats = Object.fromEntries(
    Object.entries(figures).map(([path, runs]) => {
      const ms = runs.flatMap((f) => f.ms)
      return [
        path,
        {
          median: median(ms),
          ...medianInterval(ms),
          rise: median(runs.flatMap((f) => f.rises)),
          mostRise: Math.max(...runs.flatMap((f) => f.rises)),
          firstPeak: median(runs.map((f) => f.firstPeak)),
        },
      ]
    }),
  )
  const node = stats["node:crypto"]
  const portable = stats.portable
  const summary =
    `Password hash (scrypt N = 2^15, r = 8, p = 3): ${node.median.toFixed(0)} ms on node:crypto, ` +
    `${portable.median.toFixed(0)} ms on the portable path (${ratio(slower.median)}×, 95% CI ` +
    `${ratio(slower.low)}–${ratio(slower.high)}); memory a derivation takes +${mib(node.rise)} ` +
    `and +${mib(portable.rise)} (at most +${mib(node.mostRise)} and +${mib(portable.mostRise)})`
  console.table(
    Object.fromEntries(
      Object.entries(stats).map(([path, s]) => [
        path,
        {
          "median ms": Number(s.median.toFixed(1)),
          "memory (median)": mib(s.rise),
          "memory (most)": mib(s.mostRise),
          "first, with loading": mib(s.firstPeak),
        },
      ]),
    ),
  )
  console.log(summary)
  const goals = [
    {
      area: "Passwords",
      label: "memory of one default password hash (median), node:crypto's and the portable path",
      goal: `≤ ${MEMORY_GOAL_MIB} MiB each`,
      value: `+${mib(node.rise)} and +${mib(portable.rise)}`,
      verdict: Math.max(node.rise, portable.rise) <= MEMORY_GOAL_MIB * MiB ? "met" : "missed",
      note: `${node.median.toFixed(0)} and ${portable.median.toFixed(0)} ms a hash; at most +${mib(node.mostRise)} and +${mib(portable.mostRise)}, when the table of the derivation before was not collected yet`,
    },
  ]
  const rows = Object.entries(stats)
    .map(
      ([path, s]) =>
        `| ${path} | ${s.median.toFixed(0)} ms | ${s.low.toFixed(0)}–${s.high.toFixed(0)} ms | +${mib(s.rise)} (at most +${mib(s.mostRise)}) | +${mib(s.firstPeak)} |`,
    )
    .join("\n")
  const markdown = `## Password hashing on every runtime

**${summary}.** The Password provider hashes with scrypt on \`node:crypto\` where it works, and in
plain JavaScript where it does not (Cloudflare Workers without
\`nodejs_compat\`, Vercel's edge runtime): the same hashes, at the same strength; a derivation needs
32 MiB on either path, within the smallest runtime's memory (${MEMORY_GOAL_MIB} MiB per derivation at most).

What is measured (\`bench/password-hash.mjs\`): \`hashPassword\` of \`@latch/core/providers/password\`
with the default parameters, one derivation after another, in fresh Node.js processes: on
node:crypto, and on the portable path in a process whose \`process.getBuiltinModule\` was removed
before @latch/core loaded (so it finds no node:crypto, as on those runtimes). ${ROUNDS} rounds of
${PER_ROUND} derivations per path, the paths alternating; the ratio is the median of per-round
ratios of medians, after a first derivation apart. A derivation's memory is how far it raised the
process's resident memory or its JavaScript array buffers, whichever is more (sampled every 2 ms
while it runs); the first one's, how far it raised the process's peak (\`maxRSS\`), which counts
loading the path's code, compiling it, and the table of the untimed check that follows (on the
portable path, a table no longer used stays allocated until the garbage collector runs, so two
can be resident at once for a moment). The portable path's time is CPU time on the request's thread: on platforms that
meter CPU per request (Cloudflare Workers' free plan: 10 ms), a hash does not fit; see the
\`Password\` provider's documentation. \`lib/hash-timings.mjs\` runs the same derivations in any
runtime.

| Path | Median | 95% CI of the median | Memory a derivation takes | First derivation, with loading the path |
| --- | ---: | ---: | ---: | ---: |
${rows}
`
  return { summary, goals, markdown, seconds, rounds: ROUNDS }
}

if (process.argv[2] === "--child") await child(Number(process.argv[3]))
else if (isMain(import.meta.url)) runAsScript(runPasswordHash)
