// Whether a password sign-in's, reset request's or sign-up's timing tells an address with an
// account from one without: the Password provider of @latch/core through `Auth()` in this
// process, with its default scrypt parameters, rate limits off, the kinds of request
// interleaved one by one: a wrong password for an account, the right one (for reference), an
// account without a password, an address with no account; a reset request for an account and
// for an unknown address; a sign-up for a new address and for a taken one. `node password-timing.mjs` prints the results; `node index.mjs` also
// writes them into README.md.
import { Auth } from "@latch/core"
import Password, { DEFAULT_SCRYPT, hashPassword } from "@latch/core/providers/password"
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
/** Reset requests cost about a millisecond: many more rounds, for the same confidence. */
const LIGHT_ROUNDS = QUICK ? 101 : 401

/** The entries of `object` whose key passes `keep`. */
const pick = (object, keep) => Object.fromEntries(Object.entries(object).filter(([k]) => keep(k)))

/** A copy of `list` in random order (Fisher–Yates). */
function shuffled(list) {
  const copy = [...list]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy
}
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
  const tokens = new Map()
  return {
    getUserByEmail: (email) => users.get(email) ?? null,
    getUser: (id) => [...users.values()].find((user) => user.id === id) ?? null,
    getPasswordHash: (userId) => passwords.get(userId) ?? null,
    setPasswordHash: (userId, value) => void passwords.set(userId, value),
    createVerificationToken: (token) => void tokens.set(token.token, token),
    useVerificationToken: ({ token }) => tokens.get(token) ?? null,
    // Every request within the limits: the mail rate limits are measured elsewhere.
    incrementCounter: () => 1,
  }
}

/** Reset requests and sign-ups, for an address with an account and for one without. */
const FORMS = {
  "reset: account": ["reset-password", { email: "alice@example.com" }],
  "reset: no account": ["reset-password", { email: "nobody@example.com" }],
  "sign-up: address taken": [
    "signup",
    { email: "alice@example.com", password: "a new password here" },
  ],
  "sign-up: new address": [
    "signup",
    { email: "newcomer@example.com", password: "a new password here" },
  ],
}

const KINDS = {
  "wrong password": ["alice@example.com", "not-the-password"],
  "right password": ["alice@example.com", "correct horse battery staple"],
  "account without a password": ["bob@example.com", "not-the-password"],
  "no account": ["nobody@example.com", "not-the-password"],
}

async function main() {
  const hash = await hashPassword("correct horse battery staple")
  const sent = []
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter: adapter(hash),
    session: { strategy: "jwt" },
    // Mails are kept in memory: a mail service's time is the same for any address, and its
    // noise would hide what is measured here.
    providers: [Password({ rateLimit: false, sendMail: (mail) => void sent.push(mail) })],
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
  const postForm = async ([action, fields]) => {
    const started = performance.now()
    const response = await Auth(
      new Request(`${ORIGIN}/auth/${action}/password`, {
        method: "POST",
        headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, ...fields }),
      }),
      config,
    )
    const elapsed = performance.now() - started
    return { elapsed, location: response.headers.get("location") ?? "" }
  }
  for (const [kind, input] of Object.entries(FORMS)) {
    const before = sent.length
    const { location } = await postForm(input)
    if (!location.includes("/auth/verify-request") || sent.length !== before + 1)
      throw new BenchError(`${kind}: unexpected answer ${location}`)
  }
  const heavy = { ...KINDS, ...pick(FORMS, (kind) => kind.startsWith("sign-up")) }
  const light = pick(FORMS, (kind) => kind.startsWith("reset"))
  const send = (kind) => (kind in KINDS ? signIn(KINDS[kind]) : postForm(FORMS[kind]))
  const times = Object.fromEntries(Object.keys({ ...heavy, ...light }).map((kind) => [kind, []]))
  // The kinds that derive a scrypt key (~0.3 s, 32 MiB) run apart from the reset requests
  // (~1 ms, no key): a request right after a derivation pays for its memory, and would be
  // measured as slower for no reason of its own. Within each group, every round runs each kind
  // once in a fresh random order, after a warm-up.
  for (const [group, rounds] of [
    [heavy, ROUNDS],
    [light, LIGHT_ROUNDS],
  ]) {
    const names = Object.keys(group)
    for (const kind of names) await send(kind)
    for (let round = 0; round < rounds; round++) {
      for (const kind of shuffled(names)) times[kind].push((await send(kind)).elapsed)
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
  const reset = ratios(times["reset: no account"], times["reset: account"])
  const signUp = ratios(times["sign-up: new address"], times["sign-up: address taken"])
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
    `an account without a password ${ratio(passwordless.median)}×; reset request, no account ÷ ` +
    `account ${ratio(reset.median)}× (95% CI ${ratio(reset.low)}–${ratio(reset.high)}); sign-up, ` +
    `new address ÷ taken ${ratio(signUp.median)}× (95% CI ${ratio(signUp.low)}–${ratio(signUp.high)})`
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
    {
      area: "Passwords",
      label: "reset request time, an address without an account ÷ one with",
      goal: `1 ± ${TOLERANCE} (indistinguishable)`,
      value: `${ratio(reset.median)}× (95% CI ${ratio(reset.low)}–${ratio(reset.high)})`,
      verdict: verdict(reset),
      note: "each sends one mail (a reset link, or a notice) and stores one token",
    },
    {
      area: "Passwords",
      label: "sign-up time, a new address ÷ one that has an account",
      goal: `1 ± ${TOLERANCE} (indistinguishable)`,
      value: `${ratio(signUp.median)}× (95% CI ${ratio(signUp.low)}–${ratio(signUp.high)})`,
      verdict: verdict(signUp),
      note: "each hashes the password, stores one token and sends one mail",
    },
  ]
  const markdown = `## Password sign-in timing

**${summary}.** A sign-in, a reset request or a sign-up must not tell, by its time, whether an
address has an account: every refusal costs one scrypt derivation with the same parameters, and
both answers of a reset request or a sign-up do the same lookups, store one token and send one
mail.

What is measured (\`bench/password-timing.mjs\`): the \`Password\` provider through \`Auth()\` in one
process, with its default scrypt parameters (N = 2^${DEFAULT_SCRYPT.ln}, r = ${DEFAULT_SCRYPT.r}, p = ${DEFAULT_SCRYPT.p}), rate limits off, an
adapter in memory (so the lookups cost next to nothing and the comparison is the hashing's);
mails kept in memory (a mail service takes the same time for any address). The requests that
derive a key run ${ROUNDS} rounds, the reset requests (no key, about a millisecond) ${LIGHT_ROUNDS}
rounds apart from them (right after a derivation, any request pays for its memory); each round
runs every kind of its group once in a random order, after a warm-up. Ratios are per round, with a distribution-free 95% interval of their median. Over a
network and a real database the lookups add the same fraction of a millisecond whichever the
address.

| Request | Median | 95% CI of the median |
| --- | ---: | ---: |
${rows}
`
  return { times, summary, goals, markdown, seconds, rounds: ROUNDS }
}

if (isMain(import.meta.url)) runAsScript(runPasswordTiming)
