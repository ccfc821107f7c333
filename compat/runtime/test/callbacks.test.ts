/**
 * The `jwt` and `session` callbacks (and `signIn`, and the `session` event) get what Auth.js
 * gives them, and `GET /auth/session` answers what the `session` callback returns: one app
 * configuration run on `@auth/core` and on `@latch/core` side by side, every callback's
 * arguments recorded at each step (sign-in, session read, update) and compared, with volatile
 * values (dates, random tokens, `iat`/`exp`/`jti`) replaced by what kind of value they are.
 *
 * Apps: credentials with JWT sessions; email sign-in with JWT sessions and with database
 * sessions, on @auth/pg-adapter (PGlite) whose users have an extra `role` column.
 */
import { Auth as AuthjsAuth } from "@auth/core"
import AuthjsCredentials from "@auth/core/providers/credentials"
import AuthjsNodemailer from "@auth/core/providers/nodemailer"
import Credentials from "@latch/core/providers/credentials"
import Nodemailer from "@latch/core/providers/nodemailer"
import type { AuthConfig } from "@latch/core/types"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { followLink } from "../../../packages/core/test/helpers/continue-page.js"
import { Browser, SECRET } from "../../../packages/core/test/helpers/request.js"
import { pgDatabase, type Database } from "./databases.js"

type Library = "authjs" | "latch"
type Strategy = "jwt" | "database"
type Params = Record<string, any>

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const VOLATILE_CLAIMS = new Set(["iat", "exp", "jti"])

/**
 * A copy of a value with what differs from run to run named by its kind: a `Date` stays told
 * apart from an ISO string, and a key whose value is `undefined` stays a key.
 */
function normalize(value: unknown, key?: string): unknown {
  if (key !== undefined && VOLATILE_CLAIMS.has(key) && value !== undefined) return `<${key}>`
  if (key === "sessionToken" && typeof value === "string") return "<session token>"
  if (value instanceof Date) return "<Date>"
  if (typeof value === "string") {
    if (ISO_DATE.test(value)) return "<ISO date string>"
    if (UUID.test(value)) return "<uuid>"
    return value
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).map((k) => [k, normalize((value as Params)[k], k)]),
    )
  }
  return value
}

interface Call {
  step: string
  name: string
  args: unknown
}

/** What the callbacks and events of one app were given, step by step. */
class Recorder {
  calls: Call[] = []
  step = ""
  record(name: string, args: unknown): void {
    this.calls.push({ step: this.step, name, args: normalize(args) })
  }
  of(...names: string[]): Call[] {
    return this.calls.filter((call) => names.includes(call.name))
  }
}

/** The app's callbacks: each records what it gets, and carries `role` and `theme` along. */
function callbacks(recorder: Recorder, strategy: Strategy, defaultSession: boolean) {
  return {
    signIn: (params: Params) => {
      recorder.record("signIn", params)
      return true
    },
    jwt: (params: Params) => {
      recorder.record("jwt", params)
      const { token, user, trigger, session } = params
      if (trigger === "update") return { ...token, theme: session?.theme }
      return user ? { ...token, role: user.role } : token
    },
    ...(defaultSession
      ? {}
      : {
          session: (params: Params) => {
            recorder.record("session", params)
            const { session, token, user, trigger, newSession } = params
            if (strategy === "jwt") return { ...session, role: token.role, theme: token.theme }
            return {
              ...session,
              role: user.role,
              ...(trigger === "update" ? { theme: newSession?.theme } : {}),
            }
          },
        }),
  }
}

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const ada = { id: "ada-1", name: "Ada", email: "ada@example.com", role: "admin" }

interface App {
  /** The address of the email sign-ins: one per side-by-side run (Latch limits mails per address). */
  address: string
  browser: () => Browser
  recorder: Recorder
  mails: string[]
  library: Library
}

/** @auth/pg-adapter on PGlite, its users with a `role` column: one per library, emptied per app. */
const databases = new Map<Library, Promise<Database>>()
afterAll(async () => {
  await Promise.all([...databases.values()].map(async (database) => (await database).close()))
})

function openDatabase(library: Library): Promise<Database> {
  if (!databases.has(library)) {
    databases.set(
      library,
      pgDatabase().then(async (database) => {
        await database.db.exec(`alter table users add column role text not null default 'editor'`)
        return database
      }),
    )
  }
  return databases.get(library)!
}

/** Opens both databases before the tests that use them (PGlite takes seconds to start). */
function withDatabases(): void {
  beforeAll(() => Promise.all([openDatabase("authjs"), openDatabase("latch")]), 120_000)
}

async function databaseWithRoles(library: Library): Promise<Database> {
  const database = await openDatabase(library)
  await database.empty()
  return database
}

/** The same configuration on either library (only the import of the providers differs). */
async function app(
  library: Library,
  kind: "credentials" | "email",
  strategy: Strategy,
  { defaultSession = false, address = "grace@example.com" } = {},
): Promise<App> {
  const recorder = new Recorder()
  const mails: string[] = []
  const sendVerificationRequest = async ({ url }: { url: string }) => {
    mails.push(url)
  }
  const email = { server: "smtp://127.0.0.1:1", from: "app@example.com", sendVerificationRequest }
  const credentials = { credentials: { username: {} }, authorize: () => ({ ...ada }) }
  const providers =
    kind === "credentials"
      ? [library === "authjs" ? AuthjsCredentials(credentials) : Credentials(credentials)]
      : [library === "authjs" ? AuthjsNodemailer(email) : Nodemailer(email)]
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: quiet,
    session: { strategy },
    ...(kind === "email" ? { adapter: (await databaseWithRoles(library)).adapter } : {}),
    providers,
    callbacks: callbacks(recorder, strategy, defaultSession),
    events: {
      session: (message: unknown) => recorder.record("event:session", message),
    },
  }
  return {
    address,
    recorder,
    mails,
    library,
    browser: () => {
      const browser = new Browser(config as AuthConfig)
      if (library === "authjs") browser.auth = AuthjsAuth as unknown as typeof browser.auth
      return browser
    },
  }
}

/** Signs in as the app's kind of user: the credentials form, or an email link followed. */
async function signIn(app: App, browser: Browser, kind: "credentials" | "email"): Promise<void> {
  app.recorder.step = "sign-in"
  const csrfToken = await browser.csrfToken()
  if (kind === "credentials") {
    const response = await browser.fetch("/auth/callback/credentials", {
      form: { csrfToken, username: "ada" },
    })
    expect(response.status).toBe(302)
    return
  }
  await browser.fetch("/auth/signin/nodemailer", {
    form: { csrfToken, email: app.address },
  })
  const link = app.mails.at(-1)!
  // Latch's link opens a "Continue signing in" page first (a row of the migration guide).
  const response =
    app.library === "latch" ? await followLink(browser, link) : await browser.fetch(link)
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).not.toMatch(/error/)
}

/** The session JSON of each step: a read, an update with data, a read after it. */
async function session(app: App, browser: Browser) {
  app.recorder.step = "read"
  const read = await (await browser.fetch("/auth/session")).json()
  app.recorder.step = "update"
  const csrfToken = await browser.csrfToken()
  const updated = await (
    await browser.fetch("/auth/session", { json: { csrfToken, data: { theme: "dark" } } })
  ).json()
  app.recorder.step = "read after update"
  const after = await (await browser.fetch("/auth/session")).json()
  return { read, updated, after }
}

let runs = 0

/** Both libraries through the same steps: what each recorded, and the session JSON. */
async function sideBySide(
  kind: "credentials" | "email",
  strategy: Strategy,
  options: { defaultSession?: boolean; twice?: boolean } = {},
) {
  const address = `user-${++runs}@example.com`
  const both = await Promise.all(
    (["authjs", "latch"] as const).map(async (library) => {
      const run = await app(library, kind, strategy, { ...options, address })
      const browser = run.browser()
      await signIn(run, browser, kind)
      const bodies = await session(run, browser)
      if (options.twice) {
        // A second sign-in of the same user, in another browser: no longer a new user.
        await signIn(run, run.browser(), kind)
      }
      return { recorder: run.recorder, bodies }
    }),
  )
  return { authjs: both[0]!, latch: both[1]! }
}

/** `GET /auth/session` bodies with the database session's token removed (Latch leaves it out). */
function withoutToken(bodies: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(bodies).map(([step, body]) => {
      if (body === null || typeof body !== "object") return [step, body]
      const { sessionToken: _token, ...rest } = body as Params
      return [step, rest]
    }),
  )
}

const ABSENT = Symbol("absent")

/**
 * An argument where Latch and Auth.js differ: in the calls of one callback (those of `step`, or
 * the `nth` of them), the value at `path` in each library's record.
 */
interface Difference {
  name: string
  step?: string
  nth?: number[]
  path: string[]
  authjs: unknown
  latch: unknown
}

function valueAt(args: unknown, path: string[]): unknown {
  let value: unknown = args
  for (const key of path) {
    if (value === null || typeof value !== "object" || !(key in value)) return ABSENT
    value = (value as Params)[key]
  }
  return value
}

function replaceAt(args: unknown, path: string[]): void {
  const parent = valueAt(args, path.slice(0, -1)) as Params
  parent[path.at(-1)!] = "<differs>"
}

/**
 * Compares two records call by call (which callbacks ran, in which order, with what), once each
 * known difference has been checked in both and taken out: when one goes away, the test says so.
 */
function expectSameCalls(authjs: Call[], latch: Call[], differences: Difference[] = []): void {
  const theirs = structuredClone(authjs)
  const ours = structuredClone(latch)
  for (const difference of differences) {
    for (const [calls, expected] of [
      [theirs, difference.authjs],
      [ours, difference.latch],
    ] as const) {
      const picked = calls
        .filter(({ name, step }) => name === difference.name && (difference.step ?? step) === step)
        .filter((_, i) => difference.nth?.includes(i) ?? true)
      expect(picked.length, `${difference.name} ${difference.path.join(".")}`).toBeGreaterThan(0)
      for (const call of picked) {
        const value = valueAt(call.args, difference.path)
        if (expected === ABSENT) expect(value).toBe(ABSENT)
        else expect(value).toStrictEqual(expected)
        replaceAt(call.args, difference.path)
      }
    }
  }
  expect(ours).toStrictEqual(theirs)
}

/**
 * Latch's one addition to a JWT session's `session` callback: on an update, the `trigger` and
 * `newSession` a database session's callback gets (Auth.js passes `{ session, token }` alone).
 */
const JWT_UPDATE_ADDITIONS: Difference[] = [
  { name: "session", step: "update", path: ["trigger"], authjs: ABSENT, latch: "update" },
  {
    name: "session",
    step: "update",
    path: ["newSession"],
    authjs: ABSENT,
    latch: { theme: "dark" },
  },
]

/**
 * The `signIn` callback of a credentials sign-in: Latch passes the form's credential fields only,
 * as `authorize` gets them; Auth.js the whole form, its `csrfToken` too.
 */
const CREDENTIALS_FIELDS: Difference[] = [
  {
    name: "signIn",
    path: ["credentials", "csrfToken"],
    authjs: expect.stringMatching(/^[0-9a-f]{64}$/),
    latch: ABSENT,
  },
]

/**
 * An email sign-in's account and first-time user, as the email flow builds them: Auth.js sets
 * the account's `userId` (the user's id before the sign-in: a random UUID for a new user, which
 * is not the id the user gets), and for a new user passes a placeholder user with a random id
 * and `emailVerified: null`; Latch's account has no `userId`, and its placeholder user has the
 * address as its id (and, once the link is used, the time it was used as `emailVerified`).
 */
function emailSignInDifferences(strategy: Strategy, newUserSignInCalls: number[]): Difference[] {
  const userId = { path: ["account", "userId"], authjs: expect.anything(), latch: ABSENT }
  return [
    { name: "signIn", ...userId },
    ...(strategy === "jwt" ? [{ name: "jwt", step: "sign-in", ...userId }] : []),
    {
      name: "signIn",
      nth: newUserSignInCalls,
      path: ["user", "id"],
      authjs: "<uuid>",
      latch: expect.stringMatching(/^user-\d+@example\.com$/),
    },
    {
      name: "signIn",
      nth: newUserSignInCalls.slice(1),
      path: ["user", "emailVerified"],
      authjs: null,
      latch: "<Date>",
    },
  ]
}

describe("credentials with JWT sessions", () => {
  it("gives the callbacks, and the session event, what Auth.js gives", async () => {
    const { authjs, latch } = await sideBySide("credentials", "jwt")
    const triggers = authjs.recorder.of("jwt").map((call) => (call.args as Params).trigger)
    expect(triggers).toEqual(["signIn", undefined, "update", undefined])
    // A plain read: `{ token, session: undefined }`, no `user`, no `account`.
    expect(Object.keys(authjs.recorder.of("jwt")[1]!.args as Params)).toEqual(["token", "session"])
    expectSameCalls(authjs.recorder.calls, latch.recorder.calls, [
      ...JWT_UPDATE_ADDITIONS,
      ...CREDENTIALS_FIELDS,
    ])
  })

  it("answers the session callback's result", async () => {
    const { authjs, latch } = await sideBySide("credentials", "jwt")
    expect(normalize(latch.bodies)).toStrictEqual(normalize(authjs.bodies))
    expect(authjs.bodies.after).toMatchObject({ role: "admin", theme: "dark" })
  })

  it("answers what Auth.js's default session callback answers", async () => {
    const { authjs, latch } = await sideBySide("credentials", "jwt", { defaultSession: true })
    expect(normalize(latch.bodies)).toStrictEqual(normalize(authjs.bodies))
    expect(Object.keys(authjs.bodies.read).sort()).toEqual(["expires", "user"])
    expectSameCalls(authjs.recorder.calls, latch.recorder.calls, CREDENTIALS_FIELDS)
  })
})

describe("email sign-in with JWT sessions (a user in the adapter)", () => {
  withDatabases()

  it("gives the jwt callback the stored user, trigger signUp then signIn, as Auth.js", async () => {
    const { authjs, latch } = await sideBySide("email", "jwt", { twice: true })
    const triggers = authjs.recorder.of("jwt").map((call) => (call.args as Params).trigger)
    expect(triggers).toEqual(["signUp", undefined, "update", undefined, "signIn"])
    expectSameCalls(authjs.recorder.calls, latch.recorder.calls, [
      ...JWT_UPDATE_ADDITIONS,
      ...emailSignInDifferences("jwt", [0, 1]),
      // A returning user: Auth.js marks the address verified again on every sign-in and passes
      // what the adapter's `updateUser` returned (@auth/pg-adapter's: the standard columns
      // only); Latch passes the stored user as `getUserByEmail` read it, every column.
      { name: "jwt", nth: [4], path: ["user", "role"], authjs: ABSENT, latch: "editor" },
    ])
    expect(normalize(latch.bodies)).toStrictEqual(normalize(authjs.bodies))
  })
})

describe("email sign-in with database sessions (users with a role column)", () => {
  withDatabases()

  it("gives the session callback the stored session and whole user, as Auth.js", async () => {
    const { authjs, latch } = await sideBySide("email", "database")
    const given = authjs.recorder.of("session")
    expect(given.map((call) => call.step)).toEqual(["read", "update", "read after update"])
    expect(given[0]!.args).toMatchObject({
      session: { expires: "<Date>", user: { role: "editor", emailVerified: "<Date>" } },
      newSession: undefined,
    })
    expect(given[1]!.args).toMatchObject({ trigger: "update", newSession: { theme: "dark" } })
    expect(latch.recorder.of("jwt")).toStrictEqual([])
    expectSameCalls(
      authjs.recorder.calls,
      latch.recorder.calls,
      emailSignInDifferences("database", [0, 1]),
    )
  })

  it("answers the session callback's result, but for the session token", async () => {
    const { authjs, latch } = await sideBySide("email", "database")
    expect(normalize(latch.bodies)).toStrictEqual(normalize(withoutToken(authjs.bodies)))
    expect(latch.bodies.read).toMatchObject({ role: "editor", userId: 1 })
    expect(latch.bodies.updated).toMatchObject({ theme: "dark" })
  })

  it("leaves the session token out of the session JSON, where Auth.js sends it", async () => {
    const { authjs, latch } = await sideBySide("email", "database")
    for (const body of Object.values(authjs.bodies)) {
      expect(body).toHaveProperty("sessionToken", expect.any(String))
    }
    for (const body of Object.values(latch.bodies)) {
      expect(body).toBeTypeOf("object")
      expect(body).not.toHaveProperty("sessionToken")
    }
  })

  it("answers what Auth.js's default session callback answers", async () => {
    const { authjs, latch } = await sideBySide("email", "database", { defaultSession: true })
    expect(normalize(latch.bodies)).toStrictEqual(normalize(authjs.bodies))
    expect(Object.keys(authjs.bodies.read).sort()).toEqual(["expires", "user"])
    expect(authjs.bodies.read.expires).toMatch(ISO_DATE)
    expectSameCalls(
      authjs.recorder.calls,
      latch.recorder.calls,
      emailSignInDifferences("database", [0, 1]),
    )
  })
})
