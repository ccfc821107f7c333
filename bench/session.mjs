// Reading a session: Latch's `GET /auth/session` and `getSession` against the floor of one bare
// `jose.jwtDecrypt` of the same token with the same (cached) key. Interleaved in one process.
// `node session.mjs` prints the results; `node index.mjs` (the `bench` script) also writes them
// into README.md, with the section `runSession()` returns.
import { Auth, getSession } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import { jwtDecrypt } from "jose"
import {
  BenchError,
  interleave,
  isMain,
  median,
  ops,
  QUICK,
  ratio,
  runAsScript,
} from "./lib/common.mjs"
import { COOKIE_NAME, ORIGIN, signIn } from "./lib/sign-in.mjs"

const WARMUP_MS = QUICK ? 600 : 1500 // per candidate, spread over interleaved passes
const BATCH_MS = QUICK ? 100 : 250 // target duration of one candidate's batch in a round
const ROUNDS = QUICK ? 5 : 15 // odd, so each median is one measured round

const config = {
  secret: "latch-bench-secret-that-is-long-enough-0123456789",
  trustHost: true,
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: () => ({ id: "1", name: "Alice", email: "a@example.com" }),
    }),
  ],
}

function fail(message) {
  throw new BenchError(message)
}

// --- The key Latch derives, derived here independently -----------------------------------------

async function deriveKey() {
  const encoder = new TextEncoder()
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(config.secret), "HKDF", false, [
    "deriveBits",
  ])
  return new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: encoder.encode(COOKIE_NAME),
        info: encoder.encode(`Auth.js Generated Encryption Key (${COOKIE_NAME})`),
      },
      ikm,
      512,
    ),
  )
}

// --- The benchmark -----------------------------------------------------------------------------

/**
 * Runs the benchmark and prints its results. Returns the README section (`markdown`), a one-line
 * `summary`, and `seconds` and `rounds` for the environment notes.
 */
export async function runSession() {
  const token = await signIn(config)
  const cookie = `${COOKIE_NAME}=${token}`
  const key = await deriveKey()

  // The candidates, each checked once.
  const sessionRequest = () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie } })

  const candidates = [
    {
      name: "floor",
      label: "floor: `jose.jwtDecrypt(token, key)`",
      run: () => jwtDecrypt(token, key),
    },
    {
      name: "latch",
      label: "latch: `Auth(GET /auth/session)` + `response.json()`",
      run: async () => (await Auth(sessionRequest(), config)).json(),
    },
    {
      name: "getSession",
      label: "latch: `getSession(request, config)`",
      run: () => getSession(sessionRequest(), config),
    },
  ]

  {
    const { payload, protectedHeader } = await jwtDecrypt(token, key)
    if (payload.name !== "Alice") fail("jose decrypted a token without the signed-in user")
    if (protectedHeader.alg !== "dir" || protectedHeader.enc !== "A256CBC-HS512")
      fail(`unexpected JWE header ${JSON.stringify(protectedHeader)}`)

    const response = await Auth(sessionRequest(), config)
    const body = await response.json()
    if (response.status !== 200) fail(`GET /auth/session answered ${response.status}`)
    if (body?.user?.name !== "Alice") fail(`GET /auth/session has no user: ${JSON.stringify(body)}`)
    if (response.headers.getSetCookie().length)
      fail(`GET /auth/session re-issued cookies: ${response.headers.getSetCookie().join(" | ")}`)

    const direct = await getSession(sessionRequest(), config)
    if (direct.session?.user?.name !== "Alice") fail("getSession returned no user")
    if (direct.cookies.length) fail("getSession asked to set cookies")
  }

  const started = performance.now()

  // Interleaved warm-up and rounds (see \`interleave\`).
  await interleave(candidates, {
    passes: 3,
    warmupMs: WARMUP_MS,
    batchMs: BATCH_MS,
    rounds: ROUNDS,
  })

  const seconds = (performance.now() - started) / 1000
  const [floor, route, direct] = candidates
  for (const candidate of candidates) {
    candidate.median = median(candidate.rounds)
    // Per round: throughput ratio candidate / floor (> 1 is faster than the floor), and its
    // inverse, the cost in bare decrypts (< 1 is cheaper than the floor).
    candidate.throughput = median(candidate.rounds.map((ops, round) => ops / floor.rounds[round]))
    const costs = candidate.rounds.map((ops, round) => floor.rounds[round] / ops)
    candidate.cost = median(costs)
    candidate.costRange = [Math.min(...costs), Math.max(...costs)]
  }

  // --- Report ----------------------------------------------------------------------------------

  console.log(
    `\n${ROUNDS} interleaved rounds, ${BATCH_MS} ms batches, ${seconds.toFixed(1)} s in all`,
  )
  console.table(
    Object.fromEntries(
      candidates.map((c) => [
        c.name,
        {
          "median ops/s": ops(c.median),
          "throughput ÷ floor": ratio(c.throughput),
          "cost in decrypts": ratio(c.cost),
          "cost min–max": `${ratio(c.costRange[0])}–${ratio(c.costRange[1])}`,
          "ops/batch": c.iterations,
        },
      ]),
    ),
  )
  const summary =
    `Latch GET /auth/session costs ${ratio(route.cost)}× one bare jose.jwtDecrypt ` +
    `(throughput latch/floor ${ratio(route.throughput)}; medians of per-round ratios)`
  console.log(summary)

  const rows = candidates
    .map(
      (c) =>
        `| ${c.label} | ${ops(c.median)} | ${ratio(c.throughput)} | **${ratio(c.cost)}×** | ` +
        `${ratio(c.costRange[0])}–${ratio(c.costRange[1])} |`,
    )
    .join("\n")

  const relative = (c) =>
    `${ratio(c.cost)}× the time of one bare decrypt (${c.cost < 1 ? "faster" : "slower"} than the floor)`

  const markdown = `## Reading a session

**Latch \`GET /auth/session\` costs ${ratio(route.cost)}× one bare \`jose.jwtDecrypt\`** — its
throughput is ${ratio(route.throughput)}× the bare decrypt's (ratio latch/floor of operations per
second; above 1 Latch is faster, below 1 slower). \`getSession\` costs ${ratio(direct.cost)}×
(throughput ${ratio(direct.throughput)}×).

What is measured (\`bench/session.mjs\`): a user signs in through Latch's credentials provider
(\`GET /auth/csrf\`, then a form-encoded \`POST /auth/callback/credentials\`, cookies carried over),
which yields an encrypted JWT session cookie (JWE, \`dir\` + \`A256CBC-HS512\`). The **floor** is one
bare \`jose.jwtDecrypt(token, key)\` of that very token, with the 64-byte key Latch derives
(HKDF-SHA-256 with Web Crypto; ikm the secret, salt \`${COOKIE_NAME}\`, info \`Auth.js Generated
Encryption Key (${COOKIE_NAME})\`) derived once by the benchmark itself and passed as a cached
\`Uint8Array\`. It is the least any library must do to read that cookie with jose. **latch** builds
\`new Request("${ORIGIN}/auth/session", { headers: { cookie } })\`, calls \`Auth(request, config)\`
with one reused configuration object, and awaits \`response.json()\`; the run checks once that this
answers 200 with the user and sets no cookie (the session is not re-issued before \`updateAge\`).
**getSession** is the direct read, \`getSession(request, config)\`, without an HTTP response. All
three run in one process, interleaved: after a ${WARMUP_MS / 1000} s warm-up per candidate (which
also sizes a fixed batch of about ${BATCH_MS} ms per candidate), ${ROUNDS} rounds each run every
candidate's batch once, sequentially awaited, in an order rotating from round to round (no
forced garbage collection: a full collection between batches made the next batch slower, not
fairer). Rotating the order spreads both drift and the garbage a batch leaves to the next.
Each candidate's figure is the median of its per-round operations per second; each ratio is
computed per round against the floor of the same round, and the median of those ratios is
reported (the min–max column is the spread of the cost over the rounds).

| Candidate | Median ops/s | Throughput ÷ floor (> 1: faster) | Cost in bare decrypts (< 1: cheaper) | Cost min–max over rounds |
| --- | ---: | ---: | ---: | ---: |
${rows}

Read the cost column as time per operation relative to the floor: Latch \`GET /auth/session\`
takes ${relative(route)}; \`getSession\` takes ${relative(direct)}. The ops/s figures are context
for this machine only; the ratios are what carries over.

Why Latch can be cheaper than its own "floor": the floor is the cost of reading the cookie with
jose as it is, not a lower bound on decrypting it. On every call jose's \`A256CBC-HS512\` path
imports the AES and HMAC halves of the key into Web Crypto and awaits each step; Latch imports
them once per derived key and, on Node, decrypts synchronously with \`node:crypto\` (see
\`packages/core/src/lib/jwe.ts\`). The tokens are the same standard JWE: jose reads Latch's.
`

  return { markdown, summary, seconds, rounds: ROUNDS }
}

if (isMain(import.meta.url)) runAsScript(runSession)
