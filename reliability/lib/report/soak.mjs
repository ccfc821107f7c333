// The "Load with faults" section of docs/reliability.md, from results/soak.json (`pnpm soak`).
import { count, when } from "./format.mjs"

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

/** What happened at a second of the run, for the timeline's last column. */
function eventsAt(second, faults) {
  const at = (ms) => Math.floor(ms / 1000) === second
  return [
    at(faults.databaseStopMs) && "PostgreSQL stopped",
    at(faults.databaseReadyMs) && "PostgreSQL accepting again",
    at(faults.smtpStopMs) && "SMTP server stopped",
    at(faults.smtpStartMs) && "SMTP server back",
  ]
    .filter(Boolean)
    .join("; ")
}

export function renderSoak(soak) {
  if (!soak) return "Not recorded yet: run `pnpm soak`.\n"
  const { totals, faults, memory } = soak
  const failed = soak.checks.filter((check) => !check.ok)
  const checks = soak.checks
    .map((check) => `| ${check.name} | ${check.ok ? "**yes**" : "**no**"} | ${check.detail} |`)
    .join("\n")
  const kinds = Object.entries(totals.byKind)
    .map(
      ([kind, t]) =>
        `| ${kind} | ${soak.mix[kind]}% | ${count(t.requests)} | ${count(t["503"])} | ${count(t.other5xx)} | ${count(t.errors)} |`,
    )
    .join("\n")
  const timeline = soak.timeline
    .map(
      (s) =>
        `| ${s.second} | ${count(s.requests)} | ${count(s["2xx"])} | ${count(s["3xx"])} | ${count(s["4xx"])} | ${count(s["503"])} | ${count(s.other5xx)} | ${count(s.errors)} | ${eventsAt(s.second, faults)} |`,
    )
    .join("\n")
  const logs = Object.entries(soak.errorLogKinds ?? {})
    .map(([line, n]) => `| \`${line}\` | ${count(n)} |`)
    .join("\n")
  return `${count(totals.requests)} requests in ${seconds(soak.trafficMs)} (${totals.requestsPerSecond} a second, ${soak.concurrency} at a time) against the demo on a PostgreSQL server, with database sessions and their cache on, after ${soak.preFaultSessions} sessions were signed in. PostgreSQL was stopped at ${seconds(faults.databaseStopMs)} and accepted connections again at ${seconds(faults.databaseReadyMs)} (${seconds(faults.databaseDownMs)} down); the SMTP server was stopped from ${seconds(faults.smtpStopMs)} to ${seconds(faults.smtpStartMs)}. Recorded ${when(soak.measuredAt)} (Node.js ${soak.node}); **${failed.length === 0 ? "every check held" : `${failed.length} check(s) failed`}**.

**Failures: ${count(totals.other5xx)} answers 5xx other than 503, ${count(totals.errors)} requests unanswered.** ${count(totals["503"])} requests needed the database while it was down and answered 503 with \`Retry-After: ${totals.retryAfter.join(", ")}\` (from ${totals.first503s} s to ${totals.last503s} s); the demo process was never restarted. Resident memory ${memory.startMiB} MiB after the ${memory.warmUpSeconds} s warm-up, ${memory.endMiB} MiB at the end (min ${memory.minMiB}, max ${memory.maxMiB}): **a fitted slope of ${memory.slopeMiBPerMinute} MiB per minute** over ${memory.samples} one-second samples, within the garbage collector's swings over one minute.

| Check | Held | What was measured |
| --- | --- | --- |
${checks}

The traffic, by kind (each request of a kind carries a fresh or a pre-fault session as it needs):

| Kind | Share | Requests | 503 | Other 5xx | Unanswered |
| --- | ---: | ---: | ---: | ---: | ---: |
${kinds}

Sign-ins, sign-outs and email requests that failed on the database or the mail server redirected to an error page with a code (\`code=unavailable\`, or the email sign-in error) rather than answering 5xx; a sign-out that could not delete its session kept its cookie.

<details><summary>The fault timeline, second by second</summary>

| s | Requests | 2xx | 3xx | 4xx | 503 | Other 5xx | Unanswered | Event |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${timeline}

</details>

What the demo logged (one line per kind of database failure per minute, with a count of those left out; each failed mail is logged):

| Log line | Times |
| --- | ---: |
${logs}

Reproduce: \`pnpm soak\` (\`${soak.command}\`, seed ${soak.seed}; \`reliability/soak.mjs\`).
`
}
