/**
 * One build, five servers: `BENCH_MODE` (read once, at startup) picks how `locals.auth()` works.
 *
 * - `none`: no auth at all; `locals.auth()` resolves to `null`.
 * - `floor`: the least a hand-written hook can do with jose: `locals.auth()` memoized per
 *   request, one `jose.jwtDecrypt` of the `authjs.session-token` cookie with a key derived once;
 *   `GET /auth/session` answers that session as JSON.
 * - `latch`: `SvelteKitAuth(…).handle` of `@latch/sveltekit`, which also answers `/auth/*`
 *   (the credentials rate limit on, as by default).
 * - `latch-unlimited`: the same with `rateLimit: false` (bench/rate-limit.mjs compares the two).
 * - `authjs`: `SvelteKitAuth(…).handle` of `@auth/sveltekit`, configured the same way.
 * - `latch-db`: `latch` with database sessions and the session cache (`session.cache: true`), on
 *   PostgreSQL (`DATABASE_URL`, a `pg.Pool`) or, without it, PGlite in memory in the process.
 * - `latch-db-nocache`: the same without the cache: one database read per session read.
 */
import { building } from "$app/environment"
import { SvelteKitAuth as AuthJs } from "@auth/sveltekit"
import AuthJsCredentials from "@auth/sveltekit/providers/credentials"
import { migrate, PostgresAdapter } from "@latch/pg-adapter"
import { SvelteKitAuth, type Session } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"
import type { Handle, ServerInit } from "@sveltejs/kit"
import { jwtDecrypt } from "jose"

const MODES = [
  "none",
  "floor",
  "latch",
  "latch-unlimited",
  "authjs",
  "latch-db",
  "latch-db-nocache",
] as const
type Mode = (typeof MODES)[number]

// `vite build` loads this module too (to analyse the app): no mode is needed then.
const mode = (building ? "none" : process.env.BENCH_MODE) as Mode
if (!MODES.includes(mode)) {
  throw new Error(`BENCH_MODE must be one of ${MODES.join(", ")}; got ${process.env.BENCH_MODE}`)
}

// --- none -------------------------------------------------------------------------------------

const none: Handle = ({ event, resolve }) => {
  event.locals.auth = async () => null
  return resolve(event)
}

// --- floor ------------------------------------------------------------------------------------

const COOKIE_NAME = "authjs.session-token" // no `__Secure-` prefix: the bench runs on plain http
let key: Uint8Array | undefined

/** The 64-byte key Latch derives for its session cookie, derived here independently. */
async function deriveKey(secret: string): Promise<Uint8Array> {
  const encoder = new TextEncoder()
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(COOKIE_NAME),
      info: encoder.encode(`Latch Generated Encryption Key (${COOKIE_NAME})`),
    },
    ikm,
    512,
  )
  return new Uint8Array(bits)
}

async function readFloor(token: string | undefined): Promise<Session | null> {
  if (!token || !key) return null
  try {
    const { payload } = await jwtDecrypt(token, key)
    return {
      user: {
        name: (payload.name as string | undefined) ?? null,
        email: (payload.email as string | undefined) ?? null,
        image: (payload.picture as string | undefined) ?? null,
      },
      expires: new Date((payload.exp ?? 0) * 1000).toISOString(),
    }
  } catch {
    return null
  }
}

const floor: Handle = async ({ event, resolve }) => {
  let session: Promise<Session | null> | undefined
  event.locals.auth = () => (session ??= readFloor(event.cookies.get(COOKIE_NAME)))
  if (event.url.pathname === "/auth/session" && event.request.method === "GET") {
    return Response.json(await event.locals.auth())
  }
  return resolve(event)
}

// --- latch and authjs: the same configuration -------------------------------------------------

// `alice`, and the accounts `alice-0` … `alice-999` the load generator signs in to in turn: the
// sign-ins in flight are of different accounts, as on a real site (Latch's rate limit refuses
// more than 5 attempts in flight at once for one account from one address).
const credentials = {
  credentials: { username: {}, password: {} },
  authorize: ({ username }: Partial<Record<string, unknown>>) =>
    typeof username === "string" && /^alice(-\d+)?$/.test(username)
      ? { id: "1", name: "Alice", email: "alice@example.com" }
      : null,
}

// Both read AUTH_SECRET from the environment and default to JWT sessions (no adapter).
const latch = (): Handle => SvelteKitAuth({ providers: [Credentials(credentials)] }).handle
const latchUnlimited = (): Handle =>
  SvelteKitAuth({ providers: [Credentials({ ...credentials, rateLimit: false })] }).handle

// The database modes: the user the credentials provider signs in must exist in the database.
const USER = { id: "1", name: "Alice", email: "alice@example.com", emailVerified: null }
let adapter: ReturnType<typeof PostgresAdapter> | undefined
let databaseReads = 0

async function openDatabase(): Promise<ReturnType<typeof PostgresAdapter>> {
  const url = process.env.DATABASE_URL
  const client = url
    ? new (await import("pg")).default.Pool({ connectionString: url, max: 8 })
    : new (await import("@electric-sql/pglite")).PGlite()
  await migrate(client)
  const opened = PostgresAdapter(client)
  // Counted, for bench/session-cache.mjs to see which reads reached the database.
  const read = opened.getSessionAndUser
  opened.getSessionAndUser = (token) => {
    databaseReads++
    return read(token)
  }
  // Two servers may start on one database at once: the second one's insert may lose the race.
  if (!(await opened.getUser(USER.id))) await opened.createUser(USER).catch(() => {})
  return opened
}

const latchDb = (cache: boolean) => (): Handle => {
  const { handle } = SvelteKitAuth({
    adapter,
    session: { strategy: "database", cache },
    providers: [Credentials(credentials)],
  })
  return (input) =>
    input.event.url.pathname === "/bench/reads"
      ? Response.json({ reads: databaseReads })
      : handle(input)
}

// `trustHost`: @latch/sveltekit turns it on by default; @auth/sveltekit only in development, so
// a production build must say so (or set AUTH_TRUST_HOST).
const authjs = (): Handle =>
  AuthJs({ trustHost: true, providers: [AuthJsCredentials(credentials)] }).handle

// --- The hooks --------------------------------------------------------------------------------

export const init: ServerInit = async () => {
  if (mode === "latch-db" || mode === "latch-db-nocache") adapter = await openDatabase()
  if (mode !== "floor") return
  const secret = process.env.AUTH_SECRET
  if (!secret) throw new Error("BENCH_MODE=floor needs AUTH_SECRET")
  key = await deriveKey(secret)
}

const handles: Record<Mode, () => Handle> = {
  none: () => none,
  floor: () => floor,
  latch,
  "latch-unlimited": latchUnlimited,
  authjs,
  "latch-db": latchDb(true),
  "latch-db-nocache": latchDb(false),
}
// Built at the first request: `init` (which opens the database) has run by then.
let chosen: Handle | undefined
export const handle: Handle = (input) => (chosen ??= handles[mode]())(input)
