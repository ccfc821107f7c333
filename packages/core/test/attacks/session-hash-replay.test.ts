/**
 * Attack: a stored session hash replayed as a cookie, on a store that compares text loosely.
 *
 * With `session.hashTokens` (the default) the `sessions` table holds the SHA-256 of each cookie's
 * token, so a reader of the table (a leaked backup, a read-only SQL injection) holds no cookie: a
 * hash sent as a cookie is hashed again and matches nothing. Rows written before hashing (or by
 * Auth.js) hold the token itself and are looked up by the token as it is, when its hash matches
 * nothing. On MySQL and SQL Server, whose default collations (used by Auth.js adapters) ignore
 * case — MySQL's also accents and trailing spaces — that second lookup of a hash sent upper-cased
 * finds the row holding the hash: the reader is signed in as its user, and the row is moved under
 * the hash of what was sent, signing the victim out; signing out with such a cookie deletes the
 * victim's row.
 *
 * Safe outcome: a cookie holding a stored hash in any case, or differing from it only in what
 * the collation ignores, reads no session, and the victim's row stays as it was; sign-out with
 * it deletes nothing of the victim's. A row that holds a token itself is still found and moved
 * under the hash when that exact token is sent, and only then.
 */
import { describe, expect, it } from "vitest"
import type { AdapterSession } from "../../src/adapters.js"
import { getSession } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, storedTokenOf, testConfig } from "../helpers/request.js"

/**
 * How MySQL's default collation, `utf8mb4_general_ci`, compares two strings: case and accents
 * ignored, trailing spaces ignored (PAD SPACE). SQL Server's default,
 * `SQL_Latin1_General_CP1_CI_AS`, ignores case (and trailing spaces) too.
 */
const collated = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "")
    .toLowerCase()
    .replace(/ +$/, "")

/**
 * The memory adapter with a `sessions` table whose token column is compared under that
 * collation, as an Auth.js adapter's on MySQL's defaults: a lookup, update or delete by token
 * finds the row whose token collates equal, and the unique key refuses a second such row. Rows
 * keep the token exactly as it was written. Only the comparison differs from the memory adapter.
 */
function looselyCollatedAdapter(): MemoryAdapter {
  const adapter = memoryAdapter()
  const { sessions, users } = adapter
  const rowOf = (token: string): AdapterSession | undefined => {
    for (const [key, session] of sessions) if (collated(key) === collated(token)) return session
    return undefined
  }
  adapter.createSession = (session) => {
    if (rowOf(session.sessionToken)) throw new Error("Duplicate entry for key 'sessionToken'")
    sessions.set(session.sessionToken, { ...session })
    return session
  }
  adapter.getSessionAndUser = (token) => {
    const session = rowOf(token)
    const user = session && users.get(session.userId)
    return session && user ? { session: { ...session }, user } : null
  }
  adapter.updateSession = ({ sessionToken, ...changes }) => {
    const session = rowOf(sessionToken)
    if (!session) return null
    Object.assign(session, changes)
    return { ...session }
  }
  adapter.deleteSession = (token) => {
    const session = rowOf(token)
    if (!session) return null
    sessions.delete(session.sessionToken)
    return session
  }
  return adapter
}

function setup(): { adapter: MemoryAdapter; config: AuthConfig } {
  const adapter = looselyCollatedAdapter()
  adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
  const config = testConfig({ adapter, session: { strategy: "database" } })
  return { adapter, config }
}

const SESSION = "authjs.session-token"

/** Alice signed in: her browser, and her row as the attacker reads it. */
async function signedInVictim(config: AuthConfig, adapter: MemoryAdapter) {
  const victim = new Browser(config)
  await victim.signIn()
  const hash = storedTokenOf(victim.cookies.get(SESSION)!)
  const row = { ...adapter.sessions.get(hash)! }
  expect(row.userId).toBe(ALICE.id)
  return { victim, hash, row }
}

/** The stored hash as the attacker may send it (percent-encoded in the cookie where needed). */
const replays: [string, (hash: string) => string][] = [
  ["upper-cased", (hash) => hash.toUpperCase()],
  ["in mixed case", (hash) => hash.replace(/[a-f]/g, (c, at) => (at % 2 ? c.toUpperCase() : c))],
  // Not hex any more, so no shape test can tell it from a token: only an exact match can.
  [
    "with a letter accented",
    (hash) => hash.replace(/[ace]/, (c) => encodeURIComponent(c.normalize("NFD") + "\u0301")),
  ],
  ["with a trailing space", (hash) => `${hash}%20`],
]

/** A request carrying `value` as its session cookie. */
const withCookie = (value: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `${SESSION}=${value}` } })

describe.each(replays)("a stored hash sent %s as the session cookie", (_, replay) => {
  it("reads no session, and leaves the victim's row and session as they were", async () => {
    const { adapter, config } = setup()
    const { victim, hash, row } = await signedInVictim(config, adapter)
    // The hash has a letter to change (all 64 digits would be a 1 in 10^13 draw).
    expect(replay(hash)).not.toBe(hash)

    const attacker = new Browser(config)
    attacker.cookies.set(SESSION, replay(hash))
    expect(await attacker.session()).toBeNull()
    expect((await getSession(withCookie(replay(hash)), config)).session).toBeNull()

    expect([...adapter.sessions.keys()]).toEqual([hash])
    expect(adapter.sessions.get(hash)).toEqual(row)
    expect((await victim.session())?.user?.email).toBe(ALICE.email)
  })

  it("signs nobody out", async () => {
    const { adapter, config } = setup()
    const { victim, hash } = await signedInVictim(config, adapter)

    const attacker = new Browser(config)
    const csrfToken = await attacker.csrfToken()
    attacker.cookies.set(SESSION, replay(hash))
    await attacker.fetch("/auth/signout", { form: { csrfToken } })

    expect([...adapter.sessions.keys()]).toEqual([hash])
    expect((await victim.session())?.user?.email).toBe(ALICE.email)
  })
})

it.each(replays.slice(0, 2))(
  "a stored hash sent %s is looked up only by its own hash, never as it is",
  async (_, replay) => {
    const { adapter, config } = setup()
    const { hash } = await signedInVictim(config, adapter)
    const lookups: string[] = []
    const read = adapter.getSessionAndUser!.bind(adapter)
    adapter.getSessionAndUser = (token) => {
      lookups.push(token)
      return read(token)
    }
    await getSession(withCookie(replay(hash)), config)
    expect(lookups).toEqual([storedTokenOf(replay(hash))])
  },
)

describe("a row that holds its token itself (written by Auth.js)", () => {
  const legacy = "5f0b7e3c-8a1d-4c2e-9b6f-0d3a2e1c4b5a"
  const legacyRow = (): AdapterSession => ({
    sessionToken: legacy,
    userId: ALICE.id,
    expires: new Date(Date.now() + 24 * 3600 * 1000),
  })

  it("is found by its exact token, and moved under the hash", async () => {
    const { adapter, config } = setup()
    adapter.sessions.set(legacy, legacyRow())
    const { session } = await getSession(withCookie(legacy), config)
    expect(session?.user?.email).toBe(ALICE.email)
    expect([...adapter.sessions.keys()]).toEqual([storedTokenOf(legacy)])
  })

  it("is neither read nor moved by a token that only collates equal to it", async () => {
    const { adapter, config } = setup()
    adapter.sessions.set(legacy, legacyRow())
    for (const near of [legacy.toUpperCase(), `${legacy}%20`]) {
      const { session } = await getSession(withCookie(near), config)
      expect(session).toBeNull()
      expect([...adapter.sessions.keys()]).toEqual([legacy])
    }
    const signOut = new Browser(config)
    const csrfToken = await signOut.csrfToken()
    signOut.cookies.set(SESSION, legacy.toUpperCase())
    await signOut.fetch("/auth/signout", { form: { csrfToken } })
    expect([...adapter.sessions.keys()]).toEqual([legacy])
  })

  it("is signed out by its exact token", async () => {
    const { adapter, config } = setup()
    adapter.sessions.set(legacy, legacyRow())
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    browser.cookies.set(SESSION, legacy)
    await browser.fetch("/auth/signout", { form: { csrfToken } })
    expect(adapter.sessions.size).toBe(0)
  })
})
