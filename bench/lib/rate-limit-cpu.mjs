// The credentials rate limit's share of a sign-in's CPU work, measured in this process: the
// same sign-in (`POST /auth/callback/credentials` through `Auth()` of the built @latch/core,
// with a CSRF token, the next of 1,000 accounts, from one client address) with the limit on and
// with `rateLimit: false`, interleaved sign-in by sign-in (on, off, off, on, …), each timed on
// its own, one thread, no HTTP and no load generator — so that a difference of a few percent is
// lost neither in the scheduling noise of two servers and a load generator sharing two cores nor
// in the drift of one process (its heap, its compiled code) from one batch to the next.
import { Auth } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import { median, QUICK, ratios } from "./common.mjs"

const SECRET = "latch-bench-secret-that-is-long-enough-0123456789"
const ORIGIN = "http://127.0.0.1:3000"
const BATCH = QUICK ? 500 : 2000
export const CPU_ROUNDS = QUICK ? 7 : 21

function config(rateLimit) {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) =>
          typeof username === "string" && username.startsWith("alice-")
            ? { id: username, name: "Alice" }
            : null,
        ...(rateLimit ? {} : { rateLimit: false }),
      }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

/** A CSRF token and its cookie, as a browser has them before it posts the form. */
async function csrf(cfg) {
  const response = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg)
  const { csrfToken } = await response.json()
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")
  return { csrfToken, cookie }
}

/** One sign-in through `cfg`, as the next of 1,000 accounts; its time in milliseconds. */
async function signIn(cfg, { csrfToken, cookie }, n) {
  const body = new URLSearchParams({ csrfToken, username: `alice-${n % 1000}`, password: "pw" })
  const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body,
  })
  const started = performance.now()
  const response = await Auth(request, cfg, { clientAddress: "203.0.113.7" })
  const elapsed = performance.now() - started
  if (response.status !== 302 || response.headers.get("location")?.includes("error")) {
    throw new Error(`a sign-in failed: ${response.status} ${response.headers.get("location")}`)
  }
  return elapsed
}

/**
 * One round: BATCH sign-ins with each configuration, interleaved (which one goes first changes
 * at every pair); returns each one's sign-ins per second of its own time.
 */
async function round(configs, tokens, offset) {
  const spent = { on: 0, off: 0 }
  for (let i = 0; i < BATCH; i++) {
    const order = i % 2 ? ["off", "on"] : ["on", "off"]
    for (const which of order)
      spent[which] += await signIn(configs[which], tokens[which], offset + i)
  }
  return { on: BATCH / (spent.on / 1000), off: BATCH / (spent.off / 1000) }
}

/** Runs the interleaved rounds; returns the on/off ratio of sign-ins per second. */
export async function measureRateLimitCpu() {
  const configs = { on: config(true), off: config(false) }
  const tokens = { on: await csrf(configs.on), off: await csrf(configs.off) }
  // Warm-up: both paths compiled and the counters' steady state reached.
  await round(configs, tokens, 0)
  const rates = { on: [], off: [] }
  for (let r = 0; r < CPU_ROUNDS; r++) {
    const { on, off } = await round(configs, tokens, (r + 1) * BATCH)
    rates.on.push(on)
    rates.off.push(off)
  }
  return {
    on: median(rates.on),
    off: median(rates.off),
    batch: BATCH,
    rounds: CPU_ROUNDS,
    ...ratios(rates.on, rates.off),
  }
}
