// Whether a password sign-in's timing tells an address with an account from one without: the
// Password provider of @latch/core through `Auth()` in this process, with its default scrypt
// parameters (OWASP's), rate limits off, four kinds of sign-in interleaved one by one: a wrong
// password for an account, the right one (for reference), an account without a password, and an
// address with no account. `node password-timing.mjs` prints the results; `node index.mjs` also
// writes them into README.md.
import { Auth } from "@latch/core"
import Password, { hashPassword } from "@latch/core/providers/password"
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

const ROUNDS = QUICK ? 9 : 31 // odd: each median is one measured round
const ORIGIN = "http://localhost:3000"
const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
/** The goal: the unknown address's median time within 5% of the known account's. */
const TOLERANCE = 0.05

/** An adapter in memory, with what the Password provider reads. */
function adapter(hash) {
  const users = new Map([
    ["alice@example.com", { id: "1", email: "alice@example.com", emailVerified: new Date() }],
    ["bob@example.com", { id: "2", email: "bob@example.com", emailVerified: new Date() }],
  ])
  const passwords = new Map([["1", hash]])
  return {
    getUserByEmail: (email) => users.get(email) ?? null,
    getUser: (id) => [...users.values()].find((user) => user.id === id) ?? null,
    getPasswordHash: (userId) => passwords.get(userId) ?? null,
    setPasswordHash: (userId, value) => void passwords.set(userId, value),
  }
}

const KINDS = {
  "wrong password": ["alice@example.com", "not-the-password"],
  "right password": ["alice@example.com", "correct horse battery staple"],
  "account without a password": ["bob@example.com", "not-the-password"],
  "no account": ["nobody@example.com", "not-the-password"],
}

async function main() {
  const hash = await hashPassword("correct horse battery staple")
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter: adapter(hash),
    session: { strategy: "jwt" },
    providers: [Password({ rateLimit: false })],
    logger: { error() {}, warn() {}, debug() {} },
  }
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = await csrf.json()
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")
  const signIn = async ([email, password]) => {
    const started = performance.now()
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/password`, {
        method: "POST",
        headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email, password }),
      }),
      config,
    )
    const elapsed = performance.now() - started
    return { elapsed, location: response.headers.get("location") ?? "" }
  }
  // Each kind answers as it should (else the timings would compare different things).
  for (const [kind, input] of Object.entries(KINDS)) {
    const { location } = await signIn(input)
    const refused = location.includes("error=CredentialsSignin")
    if (refused === (kind === "right password"))
      throw new BenchError(`${kind}: unexpected answer ${location}`)
  }
  // Warm-up, then rounds in which every kind runs once, in a rotating order.
  for (const input of Object.values(KINDS)) await signIn(input)
  const times = Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, []]))
  const names = Object.keys(KINDS)
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const kind = names[(round + i) % names.length]
      times[kind].push((await signIn(KINDS[kind])).elapsed)
    }
  }
  return times
}

export async function runPasswordTiming() {
  const started = performance.now()
  const times = await main()
  const seconds = (performance.now() - started) / 1000
  const known = times["wrong password"]
  const unknown = ratios(times["no account"], known)
  const passwordless = ratios(times["account without a password"], known)
  const within = (r) => r.low <= 1 + TOLERANCE && r.high >= 1 - TOLERANCE
  const verdict = (r) =>
    Math.abs(r.median - 1) <= TOLERANCE
      ? within(r) && r.low >= 1 - TOLERANCE && r.high <= 1 + TOLERANCE
        ? "met"
        : "met within noise"
      : within(r)
        ? "missed within noise"
        : "missed"
  const rows = Object.entries(times)
    .map(([kind, values]) => {
      const { low, high } = medianInterval(values)
      return `| ${kind} | ${median(values).toFixed(1)} ms | ${low.toFixed(1)}–${high.toFixed(1)} ms |`
    })
    .join("\n")
  const summary =
    `Password sign-in, an address without an account ÷ a wrong password for one: ` +
    `${ratio(unknown.median)}× (95% CI ${ratio(unknown.low)}–${ratio(unknown.high)}); ` +
    `an account without a password ${ratio(passwordless.median)}×`
  console.table(
    Object.fromEntries(
      Object.entries(times).map(([kind, values]) => [kind, { "median ms": median(values) }]),
    ),
  )
  console.log(summary)
  const goals = [
    {
      area: "Passwords",
      label: "sign-in time, an address without an account ÷ a wrong password for one",
      goal: `1 ± ${TOLERANCE} (indistinguishable)`,
      value: `${ratio(unknown.median)}× (95% CI ${ratio(unknown.low)}–${ratio(unknown.high)})`,
      verdict: verdict(unknown),
      note: `an account without a password: ${ratio(passwordless.median)}× (CI ${ratio(passwordless.low)}–${ratio(passwordless.high)})`,
    },
  ]
  const markdown = `## Password sign-in timing

**${summary}.** A sign-in must not tell, by its time, whether an address has an account: every
refusal costs one scrypt derivation with the same parameters.

What is measured (\`bench/password-timing.mjs\`): the \`Password\` provider through \`Auth()\` in one
process, with its default scrypt parameters (N = 2^17, r = 8, p = 1), rate limits off, an
adapter in memory (so the lookups cost next to nothing and the comparison is the hashing's);
${ROUNDS} rounds, each running the four kinds of sign-in once in a rotating order, after a
warm-up. Ratios are per round, with a distribution-free 95% interval of their median. Over a
network and a real database the lookups add the same fraction of a millisecond whichever the
address.

| Sign-in | Median | 95% CI of the median |
| --- | ---: | ---: |
${rows}
`
  return { times, summary, goals, markdown, seconds, rounds: ROUNDS }
}

if (isMain(import.meta.url)) runAsScript(runPasswordTiming)
