/**
 * A session cookie no session could have (a `%00`, a control character, kilobytes of it) reads
 * as no session in `locals.auth()`, without a lookup: PostgreSQL refuses NUL in text, so asking
 * the adapter failed like a database that is down, a 503 for anyone who sent such a cookie.
 */
import { describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/lib/index.js"
import { memoryAdapter } from "../../core/test/helpers/memory-adapter.js"
import { ALICE, testConfig } from "./helpers/config.js"
import { createEvent, createResolve, SESSION_COOKIE } from "./helpers/event.js"

describe("a hostile session cookie", () => {
  it.each([
    ["NUL", "abc%00"],
    ["NUL alone", "%00"],
    ["LF", "abc%0Adef"],
    ["5000 chars", "a".repeat(5000)],
  ])("(%s) is no session, and the adapter never sees it", async (_what, value) => {
    const adapter = memoryAdapter()
    adapter.users.set(ALICE.id, { ...ALICE, emailVerified: null })
    // As PostgreSQL does: text with NUL is an error.
    const lookup = vi.spyOn(adapter, "getSessionAndUser").mockImplementation(async (token) => {
      if (token.includes("\0")) throw new Error("invalid byte sequence for encoding UTF8: 0x00")
      return null
    })
    const { handle } = SvelteKitAuth(
      testConfig({ adapter, session: { strategy: "database", hashTokens: false } }),
    )
    const event = createEvent("/page", { cookies: { [SESSION_COOKIE]: value } })
    const response = await handle({ event, resolve: createResolve() })
    expect(response.status).toBe(200)
    expect(await event.locals.auth()).toBeNull()
    expect(lookup).not.toHaveBeenCalled()
  })
})
