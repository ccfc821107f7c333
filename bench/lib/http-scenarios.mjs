// What bench/http.mjs loads, and how long: the modes, the scenarios, the rounds. Shared by the
// runner and its report modules.
import { median, QUICK, ratios } from "./common.mjs"

export const MODES = ["none", "floor", "latch", "authjs"]
/** The session cookie each library sets (no `__Secure-` prefix: the servers are plain http). */
export const COOKIE_NAMES = { latch: "authjs.session-token", authjs: "authjs.session-token" }
export const ROUNDS = QUICK ? 5 : 19 // odd, so each median is one measured round
export const SECONDS = 1 // per measurement: short, so that the modes compared run close in time
export const WARMUP_SECONDS = 1 // per scenario and mode, once, before the rounds
export const CONNECTIONS = 10
export const MEMORY = {
  seconds: 3, // per batch and server
  requests: QUICK ? 20_000 : 100_000, // requests with the session the latch server must have served
  minRounds: QUICK ? 3 : 8,
  maxRounds: QUICK ? 10 : 30,
  modes: ["floor", "latch", "authjs"],
  paths: ["/protected", "/auth/session"],
}

/**
 * What is loaded. `status` is what every response must answer (the statuses allowed, for a
 * sign-in), per mode where it differs: `none` has no session to read, so its /protected
 * redirects even with the cookie. A `signIn` scenario is not one request but whole sign-ins;
 * its rate is sign-ins per second.
 */
export const SCENARIOS = [
  {
    id: "signedIn",
    label: "`/protected` with the session cookie (3 × `locals.auth()`)",
    path: "/protected",
    cookie: true,
    modes: MODES,
    status: { none: 303, floor: 200, latch: 200, authjs: 200 },
  },
  {
    id: "public",
    label: "`/` without cookie (no `locals.auth()`)",
    path: "/",
    cookie: false,
    modes: MODES,
    status: 200,
  },
  {
    id: "anonymous",
    label: "`/protected` without cookie (303 to `/signin`)",
    path: "/protected",
    cookie: false,
    modes: MODES,
    status: 303,
  },
  {
    id: "sessionRoute",
    label: "`GET /auth/session` with the session cookie",
    path: "/auth/session",
    cookie: true,
    modes: ["floor", "latch", "authjs"],
    status: 200,
  },
  {
    id: "signIn",
    label: "sign-in: `GET /auth/csrf`, then `POST /auth/callback/credentials`",
    signIn: { csrf: true },
    modes: ["latch", "authjs"],
    // @auth/sveltekit turns Auth.js's CSRF check off, and with it the csrf action: a 404.
    status: { latch: [200, 302], authjs: [404, 302] },
  },
  {
    id: "signInPost",
    label: "sign-in: `POST /auth/callback/credentials` alone",
    signIn: { csrf: false },
    modes: ["latch", "authjs"],
    status: [302],
  },
]

export const expectedStatus = (scenario, mode) =>
  typeof scenario.status === "number" || Array.isArray(scenario.status)
    ? scenario.status
    : scenario.status[mode]

/** The medians and per-round ratios of `results` (shared by the report modules). */
export function summarize(results, metric) {
  const medians = Object.fromEntries(
    SCENARIOS.map((s) => [
      s.id,
      Object.fromEntries(s.modes.map((mode) => [mode, median(results[metric][s.id][mode])])),
    ]),
  )
  const ratioOf = (scenario, a, b) =>
    ratios(results[metric][scenario][a], results[metric][scenario][b])
  return { medians, ratioOf }
}
