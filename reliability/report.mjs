// Writes docs/reliability.md from the harness's last recorded results (reliability/results/*.json):
// the fuzz of the HTTP edge (`pnpm fuzz`), the load with faults (`pnpm soak`) and the two-instance
// checks (`pnpm --filter latch-reliability run two`). Each of those commands runs this at its end;
// `pnpm --filter latch-reliability run report` rewrites the page alone.
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { renderFuzz } from "./lib/report/fuzz.mjs"
import { renderSoak } from "./lib/report/soak.mjs"
import { when } from "./lib/report/format.mjs"
import { loadResults } from "./lib/results.mjs"

const target = fileURLToPath(new URL("../docs/reliability.md", import.meta.url))

function renderTwo(two) {
  if (!two) return "Not recorded yet: run `pnpm --filter latch-reliability run two`.\n"
  const rows = two.checks
    .map((c) => `| ${c.name} | ${c.passed ? "**held**" : "**failed**"} | ${c.detail} |`)
    .join("\n")
  return `${two.setup[0].toUpperCase()}${two.setup.slice(1)}. Recorded ${when(two.measuredAt)} (Node.js ${two.node}); **${two.checks.length - two.failures} of ${two.checks.length} held**.

| Check | Outcome | What was measured |
| --- | --- | --- |
${rows}

Reproduce: \`${two.command}\` (\`reliability/two-instances.test.ts\`; the same checks run, unrecorded, in \`npm test\`).
`
}

export function renderReport() {
  const fuzz = loadResults("fuzz")
  const soak = loadResults("soak")
  const two = loadResults("two-instances")
  return `# Reliability

What happens to Latch on a bad day — hostile traffic at volume, a database restarted under load,
a mail server gone, several instances sharing one database — measured against the demo app
(\`apps/demo\`, built as deployed: adapter-node) by the harness in [\`reliability/\`](../reliability).
This page is written by that harness (\`reliability/report.mjs\`) from its last recorded run of each
part; every figure names the command that reproduces it. The short fuzz and the two-instance checks
also run in the test command (\`npm test\`) on every change.

## Hostile traffic at the HTTP edge

${renderFuzz(fuzz)}
## Load with faults

${renderSoak(soak)}
## Two instances on one database

${renderTwo(two)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(target, renderReport())
  console.log(`wrote ${target}`)
}
