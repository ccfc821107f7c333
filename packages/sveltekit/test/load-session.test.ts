import { afterEach, describe, expect, it, vi } from "vitest"
import { SESSION_DEPENDENCY, loadSession } from "../src/lib/index.js"
import { SESSION_DEPENDENCY as FROM_SESSION_ENTRY } from "../src/lib/session.svelte.js"
import { setBuilding } from "./stubs/app-environment.js"

const alice = { user: { name: "Alice" }, expires: "2099-01-01T00:00:00.000Z" }
const loadEvent = () => ({
  locals: { auth: vi.fn(async () => alice), getSession: vi.fn(async () => alice) },
  depends: vi.fn(),
})

afterEach(() => setBuilding(false))

describe("loadSession", () => {
  it("returns the request's session under the key the live session invalidates", async () => {
    const event = loadEvent()
    expect(await loadSession(event)).toEqual({ session: alice })
    expect(event.depends).toHaveBeenCalledExactlyOnceWith(SESSION_DEPENDENCY)
    expect(FROM_SESSION_ENTRY).toBe(SESSION_DEPENDENCY)
    expect(SESSION_DEPENDENCY).toBe("latch:session")
  })

  it("while prerendering, leaves the session unknown (undefined), not signed out", async () => {
    setBuilding(true)
    const event = loadEvent()
    const data = await loadSession(event)
    expect(data).toHaveProperty("session", undefined)
    expect(event.locals.auth).not.toHaveBeenCalled()
  })
})
