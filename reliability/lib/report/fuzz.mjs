// The "Hostile traffic" section of docs/reliability.md, from results/fuzz.json (`pnpm fuzz`).
import { count, ms, when } from "./format.mjs"

/** What each invariant means, as checked by lib/fuzz/invariants.mjs. */
const MEANING = {
  status:
    "no 5xx (SvelteKit's remote-function answers, HTTP 200 with `status: 500` inside, count as 500), and an answer to every request (a connection closed by Node.js on headers over 16 KB or a body over the limit counts as refused)",
  leaks:
    "no stack frame, source location, server path (`/work/`, `node_modules`, `file://`), JavaScript error name or the secret (raw, base64, base64url, hex, URL-encoded) in a body or a header",
  urls: "every URL in `Location` and `Refresh`, in HTML `href`/`action`/`src`/`formaction` and meta refresh, and in JSON `url`-like fields, relative or on the app's origin",
  sessionCookie:
    "a session cookie is set only by a completed sign-in (right credentials, same-origin), or renewed from the intact session cookie the request carried",
  latency: "every answer within the hang bound (below)",
  mailLinks: "every link in a mail the demo sent stays on the app's origin",
}

export function renderFuzz(fuzz) {
  if (!fuzz) return "Not recorded yet: run `pnpm fuzz`.\n"
  const strategies = fuzz.strategies
  const checks = {}
  for (const s of strategies)
    for (const [name, n] of Object.entries(s.checks)) checks[name] = (checks[name] ?? 0) + n
  const invariantRows = Object.entries(MEANING)
    .filter(([name]) => name in checks)
    .map(([name, meaning]) => `| \`${name}\` | ${meaning} | ${count(checks[name])} |`)
    .join("\n")
  const perStrategy = strategies
    .map(
      (s) =>
        `| ${s.strategy} | ${count(s.requests)} | ${count(s.regressionsReplayed)} | ${ms(s.latencyMs.median)} | ${ms(s.latencyMs.p99)} | ${ms(s.latencyMs.max)} | ${count(s.largeBodyLatencyMs?.count ?? 0)} (max ${ms(s.largeBodyLatencyMs?.max ?? 0)}) | ${count(s.mails)} | ${s.serverAlive ? "yes" : "**no**"} | **${count(s.failures)}** |`,
    )
    .join("\n")
  const categories = {}
  const statuses = {}
  for (const s of strategies) {
    for (const [k, n] of Object.entries(s.categories)) categories[k] = (categories[k] ?? 0) + n
    for (const [k, n] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + n
  }
  const list = (record) =>
    Object.entries(record)
      .sort(([, a], [, b]) => b - a)
      .map(([k, n]) => `${k} ${count(n)}`)
      .join(", ")
  const failed = fuzz.failures.length
  // Generated requests Node's HTTP client refuses to write (a character it will not put in a
  // path or a header value): sent to no one, so checked by no invariant.
  const unsendable = fuzz.requestsSent - checks.status
  return `**${count(fuzz.requestsSent)} requests, ${failed} invariant failures.** A seeded generator (fast-check) sent them over HTTP to the built demo, ${count(fuzz.requestsPerStrategy)} (plus the saved regressions) with each session strategy, ${fuzz.concurrency} at a time, in ${Math.round(fuzz.durationSeconds)} s; recorded ${when(fuzz.measuredAt)} (Node.js ${fuzz.node}). Every answer was checked against these invariants (${count(unsendable)} generated requests were never sent: Node's HTTP client refuses to write their path or a header):

| Invariant | What it means | Checks |
| --- | --- | ---: |
${invariantRows}

The hang bound is ${count(fuzz.boundMs.normal)} ms (${count(fuzz.boundMs.large)} ms for a request with a multi-megabyte body): a check that no request hangs, with room for a loaded 2-core machine (a password sign-up runs a full scrypt), not a latency goal. This run's latencies are in the table below; latency under load is measured in \`bench/\`. At the end of each strategy's run the server must still be the same process and answer \`/\`, and its log must hold no \`[500]\`, "Internal Error" or unhandled error.

| Sessions | Requests | Regressions replayed | Median | p99 | Max | Multi-MB bodies | Mails sent | Server alive | Failures |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${perStrategy}

What was sent, by kind: ${list(categories)}. Every action and method (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS and unknown ones) on Latch's routes and the demo's pages, form actions and remote functions; bodies of every content type, malformed (truncated multipart, bad boundaries, broken or deeply nested JSON) and oversized (up to 5 MB); hostile cookies (broken and missing chunks, thousands of chunks, tampered and foreign JWEs, other apps' cookies, control characters); path tricks (encoded slashes and dots, dot segments, \`//host\`, \`;\` parameters, very long paths); forged \`Host\`, \`Origin\`, \`Referer\`, \`X-Forwarded-*\` and \`Forwarded\`, headers up to 60 KB; and Unicode (bidirectional marks, NUL, lone surrogates, emoji, combining marks) in every field. How they were answered: ${list(statuses)}.

Found by the fuzzer, fixed, and replayed first by every run since (\`reliability/fuzz-regressions.json\`; the fixes in packages each have a test there too): a path under \`protect()\` that SvelteKit cannot decode (\`/admin/settings%\`) stopped the server; \`GET /signout\` answered 500 (an action without a page); an email sign-in that could not start, and a passkey posted to the credentials form, escaped as 500s; a session cookie with a NUL reached PostgreSQL and read as the database being down; SvelteKit answered 500 to remote form bodies it cannot read (a field twice, a field name that is no property path, a body that is no form, a form key that is no JSON), now refused with a 4xx by \`guardRemoteFunctions\` of \`@latch/sveltekit/remote\`, first in the demo's hooks. Two mistakes of the fuzzer itself were fixed in the harness: a pooled HTTP agent queued requests behind a multi-megabyte upload the server had already answered (they looked 6 s slow, some reset), and a session split into valid chunks counted as a forged one.

Reproduce: \`${fuzz.command}\` (\`pnpm fuzz\` draws a new seed; \`node reliability/fuzz.mjs --short\`, 1,500 requests per strategy with a fixed seed, runs in \`npm test\`).
`
}
