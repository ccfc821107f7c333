// The report of bench/http.mjs: the HTTP section (pages and the session route, four modes) and
// the sign-in section (Latch against Auth.js), for the console and for README.md.
import os from "node:os"
import { ops, ratio, ratios, verdict } from "./common.mjs"
import {
  CONNECTIONS,
  COOKIE_NAMES,
  expectedStatus,
  MODES,
  ROUNDS,
  SCENARIOS,
  SECONDS,
  summarize,
  WARMUP_SECONDS,
} from "./http-scenarios.mjs"
import { PINNED } from "./servers.mjs"

const MODE_NAMES = { none: "none", floor: "floor", latch: "latch", authjs: "Auth.js" }

/**
 * The ratios reported, each per round, then the median. `goal`: at least this (a goal of the
 * project); `chart`: the label of its bar in the chart.
 */
const COMPARISONS = [
  {
    label: "latch/Auth.js, `/protected` with the session cookie",
    scenario: "signedIn",
    of: ["latch", "authjs"],
    goal: 3,
    chart: "Latch ÷ Auth.js: signed-in page",
  },
  {
    label: "latch/Auth.js, `GET /auth/session` with the session cookie",
    scenario: "sessionRoute",
    of: ["latch", "authjs"],
    goal: 2,
    chart: "Latch ÷ Auth.js: GET /auth/session",
  },
  {
    label: "latch/none, `/` without cookie",
    scenario: "public",
    of: ["latch", "none"],
    goal: 0.97,
    chart: "Latch ÷ no auth: / without cookie",
  },
  {
    label: "latch/none, `/protected` without cookie",
    scenario: "anonymous",
    of: ["latch", "none"],
    goal: 0.97,
    chart: "Latch ÷ no auth: /protected without cookie",
  },
  {
    label: "latch/floor, `/protected` with the session cookie",
    scenario: "signedIn",
    of: ["latch", "floor"],
    goal: 1,
    chart: "Latch ÷ floor: signed-in page",
  },
  {
    label: "latch/floor, `GET /auth/session` with the session cookie",
    scenario: "sessionRoute",
    of: ["latch", "floor"],
  },
  {
    label: "Auth.js/floor, `/protected` with the session cookie",
    scenario: "signedIn",
    of: ["authjs", "floor"],
    chart: "Auth.js ÷ floor: signed-in page",
  },
  {
    label: "Auth.js/none, `/protected` with the session cookie (none: a 303, no page)",
    scenario: "signedIn",
    of: ["authjs", "none"],
  },
  {
    label: "latch/none, `/protected` with the session cookie (none: a 303, no page)",
    scenario: "signedIn",
    of: ["latch", "none"],
  },
  {
    label: "Auth.js/none, `/` without cookie",
    scenario: "public",
    of: ["authjs", "none"],
  },
  {
    label: "Auth.js/none, `/protected` without cookie",
    scenario: "anonymous",
    of: ["authjs", "none"],
  },
  {
    label: "floor/none, `/protected` without cookie (what any hook that runs per request costs)",
    scenario: "anonymous",
    of: ["floor", "none"],
  },
  {
    label: "floor/none, `/` without cookie (noise gauge: neither reads anything)",
    scenario: "public",
    of: ["floor", "none"],
  },
]

const METRIC_NAMES = { rate: "req/s", perCpu: "per CPU-second" }

const interval = ({ low, high }) => `${ratio(low)}–${ratio(high)}`

/** Whether every figure of `results` has a CPU time: then both metrics are reported. */
function metricsOf(results) {
  const withCpu = Object.values(results.perCpu).every((byMode) =>
    Object.values(byMode).every((values) => values.every(Number.isFinite)),
  )
  return withCpu ? ["rate", "perCpu"] : ["rate"]
}

/** The names of the cookies of a `Cookie` header, as Markdown code. */
const names = (header) =>
  header
    .split("; ")
    .map((pair) => `\`${pair.split("=", 1)[0]}\``)
    .join(", ")

export function reportHttp(results, { seconds, buildSeconds, load1, cookies }) {
  const metrics = metricsOf(results)
  const withCpu = metrics.includes("perCpu")
  const summaries = Object.fromEntries(metrics.map((m) => [m, summarize(results, m)]))
  const comparisons = COMPARISONS.map((c) => ({
    ...c,
    ...Object.fromEntries(metrics.map((m) => [m, summaries[m].ratioOf(c.scenario, ...c.of)])),
  }))
  const byLabel = (start) => comparisons.find((c) => c.label.startsWith(start))
  const signedInAuthjs = comparisons[0]
  const sessionAuthjs = comparisons[1]
  const publicNone = comparisons[2]
  const anonymousNone = comparisons[3]
  const signedInFloor = comparisons[4]
  const authjsFloor = byLabel("Auth.js/floor")
  const loadText = load1.map((value) => value.toFixed(1)).join(" → ")

  const goalOf = (c, metric) => verdict(c[metric], c.goal)
  const goals = comparisons
    .filter((c) => c.goal !== undefined)
    .map((c) => ({
      area: "HTTP",
      label: c.label,
      goal: `≥ ${c.goal}×`,
      value: `${ratio(c.rate.median)}× (95% CI ${interval(c.rate)})`,
      verdict: goalOf(c, "rate"),
      note: withCpu
        ? `per CPU-second ${ratio(c.perCpu.median)}×: ${goalOf(c, "perCpu")}`
        : undefined,
    }))

  // --- Console ---

  console.log(
    `\n${ROUNDS} interleaved rounds, ${SECONDS} s per measurement, ${seconds.toFixed(0)} s`,
  )
  console.log(`load average (1 min) over the rounds: ${loadText}`)
  for (const metric of metrics) {
    console.log(metric === "rate" ? "median per second" : "median per server CPU-second")
    console.table(
      Object.fromEntries(
        SCENARIOS.map((s) => [
          s.id,
          Object.fromEntries(
            MODES.map((m) => {
              const value = summaries[metric].medians[s.id][m]
              return [m, value === undefined ? "—" : ops(value)]
            }),
          ),
        ]),
      ),
    )
  }
  console.table(
    Object.fromEntries(
      comparisons.map((c) => [
        c.label.replaceAll("`", ""),
        Object.fromEntries(
          metrics.flatMap((m) => [
            [METRIC_NAMES[m], ratio(c[m].median)],
            [`${METRIC_NAMES[m]} 95% CI`, interval(c[m])],
            ...(c.goal !== undefined
              ? [[`goal ≥ ${c.goal} (${METRIC_NAMES[m]})`, goalOf(c, m)]]
              : []),
          ]),
        ),
      ]),
    ),
  )
  const summary =
    `HTTP: latch/Auth.js ${ratio(signedInAuthjs.rate.median)}× on a signed-in page ` +
    `(goal ≥ 3: ${goalOf(signedInAuthjs, "rate")}) and ${ratio(sessionAuthjs.rate.median)}× ` +
    `on GET /auth/session (goal ≥ 2: ${goalOf(sessionAuthjs, "rate")}); latch/none ` +
    `${ratio(publicNone.rate.median)}× on / and ${ratio(anonymousNone.rate.median)}× on ` +
    `/protected without a session (goal ≥ 0.97: ${goalOf(publicNone, "rate")}, ` +
    `${goalOf(anonymousNone, "rate")}); latch/floor ${ratio(signedInFloor.rate.median)}× ` +
    `on a signed-in page`
  console.log(summary)

  // --- Markdown ---

  const pageScenarios = SCENARIOS.filter((s) => !s.signIn)
  const cell = (metric, scenario, mode) => {
    const value = summaries[metric].medians[scenario.id][mode]
    if (value === undefined) return "—"
    const note =
      scenario.id === "signedIn" && expectedStatus(scenario, mode) === 303 ? " (303)" : ""
    return `${ops(value)}${note}`
  }
  const table = (metric, title) => `| ${title} | ${MODES.map((m) => MODE_NAMES[m]).join(" | ")} |
| --- | ${MODES.map(() => "---:").join(" | ")} |
${pageScenarios.map((s) => `| ${s.label} | ${MODES.map((mode) => cell(metric, s, mode)).join(" | ")} |`).join("\n")}
`
  const ratioTable = `| Ratio | ${metrics.map((m) => `${METRIC_NAMES[m]}: median | 95% CI`).join(" | ")} | Goal |
| --- | ${metrics.map(() => "---: | ---:").join(" | ")} | --- |
${comparisons
  .map((c) => {
    const cells = metrics.map((m) => `**${ratio(c[m].median)}** | ${interval(c[m])}`)
    const goal =
      c.goal !== undefined
        ? `≥ ${c.goal}: ${metrics.map((m) => `${METRIC_NAMES[m]} ${goalOf(c, m)}`).join("; ")}`
        : ""
    return `| ${c.label} | ${cells.join(" | ")} | ${goal} |`
  })
  .join("\n")}
`
  const cpuText = withCpu
    ? `
Each measurement also reads the CPU time the server used meanwhile (all its threads, from
\`/proc/<pid>/task/*/schedstat\`), giving **requests per CPU-second of the server**: about what a
core of its own would serve. Other processes on the machine take CPU away from the server and
lower its req/s; they change the CPU time a request takes much less, so on a shared machine this
is the steadier of the two figures (not immune: caches and a busy sibling core still slow it).
`
    : ""
  const pinText = PINNED
    ? ` The servers run pinned to CPU ${PINNED[0]} and the load generator to CPU ${PINNED[1]}
(\`taskset\`), so that they never share a core.`
    : ""

  const markdown = `## Serving pages over HTTP

**On a signed-in page, a SvelteKit app with Latch serves ${ratio(signedInAuthjs.rate.median)}× the
requests per second of the same app with Auth.js, and ${ratio(sessionAuthjs.rate.median)}× on
\`GET /auth/session\`** (latch/Auth.js; goals ≥ 3 and ≥ 2: ${goalOf(signedInAuthjs, "rate")},
${goalOf(sessionAuthjs, "rate")}). **Without a session it keeps ${ratio(publicNone.rate.median)}×
(\`/\`) and ${ratio(anonymousNone.rate.median)}× (\`/protected\`, redirected) of the throughput of
the app without auth** (latch/none; goal ≥ 0.97: ${goalOf(publicNone, "rate")},
${goalOf(anonymousNone, "rate")}). On the signed-in page Latch serves ${ratio(signedInFloor.rate.median)}×
the hand-written jose hook (latch/floor), Auth.js ${ratio(authjsFloor.rate.median)}×.

What is measured (\`bench/http.mjs\`): one SvelteKit app, \`bench/app\`, built once with \`vite
build\` (adapter-node), started as four processes that differ only in \`BENCH_MODE\`, which its
\`src/hooks.server.ts\` reads at startup:

- **none**: no auth; \`locals.auth = async () => null\`.
- **floor**: a hand-written hook: \`locals.auth()\` memoized per request, doing one
  \`jose.jwtDecrypt\` of the \`${COOKIE_NAMES.latch}\` cookie with the key Latch derives (HKDF-SHA-256,
  64 bytes), derived once at startup, and returning \`{ user: { name, email, image }, expires }\`;
  \`GET /auth/session\` answers that as JSON. The least a SvelteKit app can do to read Latch's
  cookie with jose.
- **latch**: \`SvelteKitAuth({ providers: [Credentials(…)] }).handle\` of \`@latch/sveltekit\`,
  which also answers \`/auth/*\`.
- **Auth.js**: \`SvelteKitAuth({ trustHost: true, providers: [Credentials(…)] }).handle\` of
  \`@auth/sveltekit\` (installed in \`bench/\` only, from the registry), the same credentials user,
  the same \`AUTH_SECRET\`, JWT sessions (the default of both without an adapter), its default
  base path \`/auth\`. \`trustHost\` is on by default in Latch's SvelteKit integration; Auth.js's
  needs it said in production.

\`/protected\` calls \`locals.auth()\` three times per request (once in its \`+layout.server.ts\`,
twice in its \`+page.server.ts\`), shows the user's name, and redirects with 303 to \`/signin\`
without a session; \`/\` never calls it. Each library's session cookie comes from signing in
through its own server as its browser client does: Latch's with \`GET /auth/csrf\`, then a
form-encoded \`POST /auth/callback/credentials\` with the token and the cookies; Auth.js's with the
POST alone (its csrf action answers 404 under SvelteKit: see _Signing in_). The requests then
carry every cookie the sign-in left (Latch: ${names(cookies.latch)}; Auth.js:
${names(cookies.authjs)}), as a browser's would; the floor
server reads Latch's cookie, since it derives the same key. Before loading, the runner checks
once per server that every scenario answers its status, that \`/protected\` and \`GET
/auth/session\` with the cookie show the user, and which cookies the answers set: none, except
that Auth.js sets its session cookie again on every read of the session (a freshly encrypted JWT
with a new expiry, one \`Set-Cookie\` per response) and its callback-url cookie for a visitor
without one; Latch does not re-issue the session before \`updateAge\`. Auth.js's
\`locals.auth()\` is not memoized: the three calls of \`/protected\` are three reads. The **none** server has no
session to read: its \`/protected\` answers the cookie with the 303, so ratios to none on the
signed-in page compare a rendered page with a redirect, and are context only. Latch above its
floor is no paradox: it decrypts the cookie for less than \`jose.jwtDecrypt\` does (see _Reading a
session_).

Load comes from [autocannon](https://github.com/mcollina/autocannon) in a forked process (not the
servers', not the runner's): ${CONNECTIONS} connections, no pipelining, every response counted
whatever its status (each must be the expected one, with no errors or timeouts).${pinText} After a
${WARMUP_SECONDS} s warm-up per scenario and server, ${ROUNDS} rounds run each scenario on every
server for ${SECONDS} s, one server at a time, in an order rotating from round to round, so that the
measurements a ratio compares run seconds apart (the sign-ins of the next section are one more
scenario of the same rounds). A figure is the median of its rounds; a ratio is computed per
round, then the median is taken. Its **95% CI** is a distribution-free confidence interval of that
median (order statistics of the per-round ratios): a goal is **met** or **missed** when the whole
interval is on one side of it, and only _met/missed within noise_ by the median otherwise.
${cpuText}
${table("rate", "Median req/s")}${withCpu ? `\n${table("perCpu", "Median requests per server CPU-second")}` : ""}
${ratioTable}
The absolute figures are context for this machine only (the servers and the load generator share
its ${os.cpus().length} cores; the 1-minute load average went ${loadText} over the rounds, about 2
of it the benchmark's own); the ratios are what carries over. \`floor/none\` on \`/\` measures
nothing but noise — neither server reads the session there — and shows how far apart two
equivalent servers land in this run. \`floor/none\` on \`/protected\` without cookie compares the
hand-written hook, whose three \`locals.auth()\` find no cookie, with \`async () => null\`: what
a hook doing anything per request costs there, beside Latch's own figure.
`

  const chart = comparisons
    .filter((c) => c.chart)
    .map((c) => ({ label: c.chart, ...c.rate, goal: c.goal, verdict: c.goal && goalOf(c, "rate") }))

  return { markdown, summary, goals, chart, seconds, buildSeconds, load1 }
}

export function reportSignIn(results) {
  const metrics = metricsOf(results)
  const summaries = Object.fromEntries(metrics.map((m) => [m, summarize(results, m)]))
  const [withToken, postOnly] = SCENARIOS.filter((s) => s.signIn)
  // Per round, like the other ratios; the last compares two scenarios of the same round.
  const rows = [
    { label: withToken.label, a: [withToken.id, "latch"], b: [withToken.id, "authjs"] },
    { label: postOnly.label, a: [postOnly.id, "latch"], b: [postOnly.id, "authjs"] },
    {
      label:
        "as each library's browser client signs in: Latch's with the CSRF fetch, Auth.js's without",
      a: [withToken.id, "latch"],
      b: [postOnly.id, "authjs"],
    },
  ].map((row) => ({
    ...row,
    ...Object.fromEntries(
      metrics.map((m) => [
        m,
        {
          latch: summaries[m].medians[row.a[0]].latch,
          authjs: summaries[m].medians[row.b[0]].authjs,
          ...ratios(results[m][row.a[0]].latch, results[m][row.b[0]].authjs),
        },
      ]),
    ),
  }))
  const [main, post, clients] = rows

  console.log("median sign-ins per second")
  console.table(
    Object.fromEntries(
      rows.flatMap((row) =>
        metrics.map((m) => [
          `${row.label.replaceAll("`", "").slice(0, 60)} (${METRIC_NAMES[m]})`,
          {
            latch: ops(row[m].latch),
            "Auth.js": ops(row[m].authjs),
            "latch/Auth.js": ratio(row[m].median),
            "95% CI": interval(row[m]),
          },
        ]),
      ),
    ),
  )
  const summary =
    `Sign-ins: latch/Auth.js ${ratio(main.rate.median)}× full credentials sign-ins per second ` +
    `(GET /auth/csrf + POST), ${ratio(post.rate.median)}× with the POST alone`
  console.log(summary)

  const table = rows
    .flatMap((row) =>
      metrics.map(
        (m) =>
          `| ${row.label} | ${METRIC_NAMES[m] === "req/s" ? "per second" : "per server CPU-second"} | ` +
          `${ops(row[m].latch)} | ${ops(row[m].authjs)} | **${ratio(row[m].median)}** | ${interval(row[m])} |`,
      ),
    )
    .join("\n")

  const markdown = `## Signing in

**Latch completes ${ratio(main.rate.median)}× the credentials sign-ins per second of Auth.js**
(latch/Auth.js, each sign-in a \`GET /auth/csrf\` and a \`POST /auth/callback/credentials\`;
${ratio(post.rate.median)}× with the POST alone; no goal is set for sign-ins).

What is measured (\`bench/http.mjs\`: two more scenarios of the HTTP rounds above, on the same
latch and Auth.js servers): ${CONNECTIONS} connections of the load generator each sign in over and
over as a browser does: a form-encoded \`POST /auth/callback/credentials\` (user and password,
an \`Origin\` header), after a \`GET /auth/csrf\` whose cookies — and CSRF token, when its body has
one — the POST carries. Each sign-in is to the next of 1,000 accounts (\`alice-0\` …
\`alice-999\`, in turn), so that the sign-ins in flight at once are of different accounts, as on
a real site: Latch's credentials rate limit, on by default, counts the attempts in flight too, and
refuses more than 5 at once for one account from one address (see _The credentials rate limit_). A sign-in counts when the POST answers a redirect that sets the library's
session cookie (\`${COOKIE_NAMES.latch}\`, \`${COOKIE_NAMES.authjs}\`); any other answer fails the
run. Each round runs ${SECONDS} s of each kind of sign-in per server, in the rotating order of the
rounds; each ratio is taken per round, then its median.

With \`@auth/sveltekit\`, \`GET /auth/csrf\` answers **404**: it sets \`skipCSRFCheck\` for every
request, which turns off Auth.js's CSRF check and its csrf action with it, leaving POSTs to
SvelteKit's own origin check (its server logs a \`csrf-disabled\` warning at startup); its
browser client posts the credentials without fetching a token. So the Auth.js server answers the
first request of a full sign-in with a 404 (and its cookies), and the POST carries no token.
\`@latch/sveltekit\` answers the token, and its browser client fetches one before posting; a POST
whose \`Origin\` is the app's own is accepted on that origin check (a cross-site POST would need
the token), so the POST alone signs in with either library. The last row compares what each
library's own client does.

| Sign-in | | latch | Auth.js | latch/Auth.js (median) | 95% CI |
| --- | --- | ---: | ---: | ---: | ---: |
${table}
`
  const chart = [
    { label: "Latch ÷ Auth.js: sign-ins (csrf + POST)", ...main.rate },
    { label: "Latch ÷ Auth.js: sign-ins (POST alone)", ...post.rate },
  ]
  return { markdown, summary, chart, clients }
}
