// The credentials rate limit's share of a sign-in's CPU work, measured in this process: the
// same sign-in (`POST /auth/callback/credentials` through `Auth()` of the built @latch/core,
// with a CSRF token, the next of 1,000 accounts, from one client address) with the limit on and
// with `rateLimit: false`, in alternating batches, one thread, no HTTP and no load generator —
// so that a difference of a few percent is not lost in the scheduling noise of two servers and
// a load generator sharing two cores.
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

/** Sign-ins per second of one batch. */
async function batch(cfg, { csrfToken, cookie }, offset) {
  const started = performance.now()
  for (let i = 0; i < BATCH; i++) {
    const body = new URLSearchParams({
      csrfToken,
      username: `alice-${(offset + i) % 1000}`,
      password: "pw",
    })
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body,
      }),
      cfg,
      { clientAddress: "203.0.113.7" },
    )
    if (response.status !== 302 || response.headers.get("location")?.includes("error")) {
      throw new Error(`a sign-in failed: ${response.status} ${response.headers.get("location")}`)
    }
  }
  return BATCH / ((performance.now() - started) / 1000)
}

/** Runs the alternating batches; returns the on/off ratio of sign-ins per second. */
export async function measureRateLimitCpu() {
  const on = config(true)
  const off = config(false)
  const tokens = { on: await csrf(on), off: await csrf(off) }
  // Warm-up: both paths compiled and the counters' steady state reached.
  await batch(on, tokens.on, 0)
  await batch(off, tokens.off, 0)
  const rates = { on: [], off: [] }
  for (let round = 0; round < CPU_ROUNDS; round++) {
    const order = round % 2 ? ["off", "on"] : ["on", "off"]
    for (const which of order) {
      rates[which].push(await batch(which === "on" ? on : off, tokens[which], round * BATCH))
    }
  }
  return {
    on: median(rates.on),
    off: median(rates.off),
    batch: BATCH,
    rounds: CPU_ROUNDS,
    ...ratios(rates.on, rates.off),
  }
}
