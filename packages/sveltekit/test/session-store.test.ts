/**
 * The live session store: its states, shared and concurrent calls, failures, the cross-tab
 * channel and the expiry timer. The server side is a function answering from a variable; the
 * channel is an in-memory one that, like `BroadcastChannel`, delivers to every other instance of
 * the same name and never to the sender.
 */
import type { Session } from "@latch/core/types"
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  createSessionStore,
  useSession,
  type SessionChannel,
  type SessionStore,
} from "../src/lib/session.svelte.js"
import { invalidated } from "./stubs/app-navigation.js"
import { setBase } from "./stubs/app-paths.js"
import { page } from "./stubs/app-state.js"

const alice: Session = { user: { name: "Alice" }, expires: "2099-01-01T00:00:00.000Z" }
const bob: Session = { user: { name: "Bob" }, expires: "2099-01-01T00:00:00.000Z" }

/** A deferred value, to decide when a fetch answers. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

/** Channels of one name: a message goes to the others, asynchronously, as in a browser. */
function channelNetwork() {
  const members = new Set<MemoryChannel>()
  class MemoryChannel implements SessionChannel {
    listeners: ((event: { data: unknown }) => void)[] = []
    constructor() {
      members.add(this)
    }
    postMessage(message: unknown): void {
      if (!members.has(this)) throw new Error("posted on a closed channel")
      const data = structuredClone(message)
      for (const other of members)
        if (other !== this) queueMicrotask(() => other.listeners.forEach((l) => l({ data })))
    }
    addEventListener(_type: "message", listener: (event: { data: unknown }) => void): void {
      this.listeners.push(listener)
    }
    close(): void {
      members.delete(this)
    }
  }
  return { open: () => new MemoryChannel(), members }
}

/** Lets queued microtasks and promise chains run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const stores: SessionStore[] = []
function track(store: SessionStore): SessionStore {
  stores.push(store)
  return store
}
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  invalidated.splice(0)
})

/** A window and document as far as the store uses them: events, and whether the tab shows. */
function stubBrowserWindow() {
  const window = new EventTarget()
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" })
  vi.stubGlobal("addEventListener", window.addEventListener.bind(window))
  vi.stubGlobal("removeEventListener", window.removeEventListener.bind(window))
  vi.stubGlobal("document", document)
  return {
    window,
    hide() {
      document.visibilityState = "hidden"
      document.dispatchEvent(new Event("visibilitychange"))
    },
    show() {
      document.visibilityState = "visible"
      document.dispatchEvent(new Event("visibilitychange"))
    },
    focus: () => window.dispatchEvent(new Event("focus")),
  }
}

describe("states", () => {
  it("goes loading → authenticated → unauthenticated", async () => {
    let server: Session | null = alice
    const store = track(createSessionStore({ fetchSession: async () => server, channel: null }))
    expect(store.status).toBe("loading")
    expect(store.data).toBeNull()
    await settle()
    expect(store.status).toBe("authenticated")
    expect(store.data).toEqual(alice)
    server = null
    await store.refresh()
    expect(store.status).toBe("unauthenticated")
    expect(store.data).toBeNull()
  })

  it("starts from a known session without fetching", async () => {
    const fetchSession = vi.fn(async () => bob)
    const store = track(createSessionStore({ initial: alice, fetchSession, channel: null }))
    expect(store.status).toBe("authenticated")
    await settle()
    expect(fetchSession).not.toHaveBeenCalled()
    expect(store.data).toEqual(alice)
  })
})

describe("refresh and update", () => {
  it("shares one fetch between concurrent refreshes", async () => {
    const answer = deferred<Session | null>()
    const fetchSession = vi.fn(() => answer.promise)
    const store = track(createSessionStore({ initial: null, fetchSession, channel: null }))
    const first = store.refresh()
    const second = store.refresh()
    expect(fetchSession).toHaveBeenCalledTimes(1)
    answer.resolve(alice)
    await expect(first).resolves.toEqual(alice)
    await expect(second).resolves.toEqual(alice)
    // Once it has answered, the next refresh fetches again.
    await store.refresh()
    expect(fetchSession).toHaveBeenCalledTimes(2)
  })

  it("shows the last update when the answers come back in reverse", async () => {
    const answers = [deferred<Session | null>(), deferred<Session | null>()]
    let call = 0
    const store = track(
      createSessionStore({
        initial: null,
        fetchSession: async () => null,
        updateSession: () => answers[call++]!.promise,
        channel: null,
      }),
    )
    const first = store.update({ name: "Alice" })
    const second = store.update({ name: "Bob" })
    answers[1]!.resolve(bob)
    await expect(second).resolves.toEqual(bob)
    answers[0]!.resolve(alice)
    await expect(first).resolves.toEqual(alice)
    expect(store.data).toEqual(bob)
  })

  it("keeps the last session and reports the error when a refetch fails", async () => {
    const failure = new Error("offline")
    let fail = false
    const store = track(
      createSessionStore({
        initial: alice,
        fetchSession: async () => {
          if (fail) throw failure
          return alice
        },
        channel: null,
      }),
    )
    fail = true
    await expect(store.refresh()).rejects.toBe(failure)
    expect(store.data).toEqual(alice)
    expect(store.status).toBe("authenticated")
    expect(store.error).toBe(failure)
    fail = false
    await store.refresh()
    expect(store.error).toBeNull()
  })

  it("asks the server again when an update answers null", async () => {
    const fetchSession = vi.fn(async () => alice)
    const store = track(
      createSessionStore({
        initial: alice,
        fetchSession,
        updateSession: async () => null,
        channel: null,
      }),
    )
    await expect(store.update({ theme: "dark" })).resolves.toEqual(alice)
    expect(fetchSession).toHaveBeenCalledTimes(1)
    expect(store.data).toEqual(alice)
  })
})

describe("across tabs", () => {
  it("a sign-in in one tab makes the other refetch and show it", async () => {
    const network = channelNetwork()
    let server: Session | null = null
    const fetchA = vi.fn(async () => server)
    const fetchB = vi.fn(async () => server)
    const a = track(
      createSessionStore({ initial: null, fetchSession: fetchA, channel: network.open() }),
    )
    const b = track(
      createSessionStore({ initial: null, fetchSession: fetchB, channel: network.open() }),
    )
    await settle()
    // Both announced "null" and agree: nobody refetched.
    expect(fetchA).not.toHaveBeenCalled()
    expect(fetchB).not.toHaveBeenCalled()

    server = alice
    await a.refresh()
    await settle()
    expect(fetchB).toHaveBeenCalledTimes(1)
    expect(b.data).toEqual(alice)
    // B's announcement matches what A shows: no echo.
    expect(fetchA).toHaveBeenCalledTimes(1)
  })

  it("a page reloaded after a sign-out tells the other tabs", async () => {
    const network = channelNetwork()
    let server: Session | null = alice
    const fetchSession = vi.fn(async () => server)
    const other = track(
      createSessionStore({ initial: alice, fetchSession, channel: network.open() }),
    )
    await settle()
    server = null
    // The form action's reload seeds a fresh store from page data.
    track(createSessionStore({ initial: null, fetchSession, channel: network.open() }))
    await settle()
    expect(other.status).toBe("unauthenticated")
  })

  it("ignores other messages, and leaves the channel on destroy", async () => {
    const network = channelNetwork()
    const fetchSession = vi.fn(async () => alice)
    const channel = network.open()
    const store = createSessionStore({ initial: alice, fetchSession, channel })
    const sender = network.open()
    sender.postMessage({ type: "other" })
    sender.postMessage("session")
    await settle()
    expect(fetchSession).not.toHaveBeenCalled()
    store.destroy()
    expect(network.members.has(channel)).toBe(false)
    sender.close()
  })
})

describe("expiry", () => {
  it("refetches when the session expires", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const short: Session = { user: { name: "Alice" }, expires: "2030-01-01T00:05:00.000Z" }
    const fetchSession = vi.fn(async () => null)
    const store = track(createSessionStore({ initial: short, fetchSession, channel: null }))
    await vi.advanceTimersByTimeAsync(4 * 60_000)
    expect(fetchSession).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fetchSession).toHaveBeenCalledTimes(1)
    expect(store.status).toBe("unauthenticated")
  })

  it("waits at least a little when the clock says the session has already expired", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const past: Session = { user: { name: "Alice" }, expires: "2029-12-31T23:59:00.000Z" }
    const fetchSession = vi.fn(async () => past)
    track(createSessionStore({ initial: past, fetchSession, channel: null }))
    await vi.advanceTimersByTimeAsync(25_000)
    // Not a loop: one refetch per 10 s floor, at 10 s and 20 s.
    expect(fetchSession).toHaveBeenCalledTimes(2)
  })

  it("stops the timer on destroy", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const short: Session = { user: { name: "Alice" }, expires: "2030-01-01T00:05:00.000Z" }
    const fetchSession = vi.fn(async () => null)
    createSessionStore({ initial: short, fetchSession, channel: null }).destroy()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(fetchSession).not.toHaveBeenCalled()
  })
})

describe("useSession on the server", () => {
  it("returns a read-only view of page data, not a shared store", async () => {
    page.data = { session: alice }
    const first = useSession()
    expect(first.status).toBe("authenticated")
    expect(first.data).toEqual(alice)
    page.data = { session: null }
    const second = useSession()
    expect(second.status).toBe("unauthenticated")
    expect(first.data).toEqual(alice)
    await expect(second.update({})).rejects.toThrow(/browser/)
    page.data = {}
  })
})

describe("the server is the truth", () => {
  it("refetches when the tab is shown again, at most once per focusThrottle", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const tab = stubBrowserWindow()
    let server: Session | null = alice
    const fetchSession = vi.fn(async () => server)
    const store = track(createSessionStore({ initial: alice, fetchSession, channel: null }))
    server = null // signed out everywhere, from another device
    tab.hide()
    tab.show()
    await vi.advanceTimersByTimeAsync(0)
    // The page data is a moment old: no refetch yet.
    expect(fetchSession).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(5_000)
    tab.hide()
    expect(fetchSession).not.toHaveBeenCalled()
    tab.show()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchSession).toHaveBeenCalledTimes(1)
    expect(store.status).toBe("unauthenticated")
    // Focus right after: throttled.
    tab.focus()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchSession).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(5_000)
    tab.focus()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchSession).toHaveBeenCalledTimes(2)
  })

  it("does not refetch on focus when told not to, nor after destroy", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const tab = stubBrowserWindow()
    const fetchSession = vi.fn(async () => alice)
    track(
      createSessionStore({ initial: alice, fetchSession, channel: null, refetchOnFocus: false }),
    )
    const destroyed = createSessionStore({ initial: alice, fetchSession, channel: null })
    destroyed.destroy()
    await vi.advanceTimersByTimeAsync(60_000)
    tab.focus()
    tab.show()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetchSession).not.toHaveBeenCalled()
  })

  it("refetches on an interval while the tab is visible, not while hidden", async () => {
    vi.useFakeTimers({ now: Date.parse("2030-01-01T00:00:00.000Z") })
    const tab = stubBrowserWindow()
    const fetchSession = vi.fn(async () => alice)
    const store = track(
      createSessionStore({ initial: alice, fetchSession, channel: null, refetchInterval: 60_000 }),
    )
    await vi.advanceTimersByTimeAsync(120_000)
    expect(fetchSession).toHaveBeenCalledTimes(2)
    tab.hide()
    await vi.advanceTimersByTimeAsync(180_000)
    expect(fetchSession).toHaveBeenCalledTimes(2)
    store.destroy()
    tab.show()
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(120_000)
    expect(fetchSession).toHaveBeenCalledTimes(2)
  })

  it("re-runs every load when the user changed, the session's loads when only the expiry moved", async () => {
    let server: Session | null = alice
    const invalidate = vi.fn()
    const invalidateAll = vi.fn()
    const store = track(
      createSessionStore({
        initial: alice,
        fetchSession: async () => server,
        channel: null,
        invalidate,
        invalidateAll,
      }),
    )
    await store.refresh()
    expect(invalidate).not.toHaveBeenCalled() // no change
    expect(invalidateAll).not.toHaveBeenCalled()
    // The same user, a later expiry (a rolling session): only the loads that show the session.
    server = { ...alice, expires: "2099-02-01T00:00:00.000Z" }
    await store.refresh()
    expect(invalidate).toHaveBeenCalledExactlyOnceWith("latch:session")
    expect(invalidateAll).not.toHaveBeenCalled()
    // Another user: a page's own load read `locals.auth()` and depends on no key, so all re-run.
    server = bob
    await store.refresh()
    expect(invalidateAll).toHaveBeenCalledOnce()
    expect(invalidate).toHaveBeenCalledTimes(1)
    // Signed out elsewhere: the same.
    server = null
    await store.refresh()
    expect(invalidateAll).toHaveBeenCalledTimes(2)
    // The first answer of a store that started without a session (a prerendered page) is no
    // change of page data.
    const fresh = track(
      createSessionStore({
        fetchSession: async () => bob,
        channel: null,
        invalidate,
        invalidateAll,
      }),
    )
    await settle()
    expect(fresh.data).toEqual(bob)
    expect(invalidate).toHaveBeenCalledTimes(1)
    expect(invalidateAll).toHaveBeenCalledTimes(2)
  })

  it("re-runs only the session's loads for a new user when invalidateAll is null", async () => {
    let server: Session | null = alice
    const invalidate = vi.fn()
    const store = track(
      createSessionStore({
        initial: alice,
        fetchSession: async () => server,
        channel: null,
        invalidate,
        invalidateAll: null,
      }),
    )
    server = bob
    await store.refresh()
    expect(invalidate).toHaveBeenCalledExactlyOnceWith("latch:session")
  })

  it("invalidates through $app/navigation by default: every load after a sign-out", async () => {
    let server: Session | null = alice
    const store = track(
      createSessionStore({ initial: alice, fetchSession: async () => server, channel: null }),
    )
    server = { ...alice, expires: "2099-02-01T00:00:00.000Z" }
    await store.refresh()
    await settle()
    expect(invalidated).toEqual(["latch:session"])
    server = null
    await store.refresh()
    await settle()
    expect(invalidated).toEqual(["latch:session", "*"])
  })
})

describe("without BroadcastChannel", () => {
  it("tells the other tabs through storage events", async () => {
    const tab = stubBrowserWindow()
    vi.stubGlobal("BroadcastChannel", undefined)
    // Local storage shared by two tabs: a write fires `storage` in the window (and, unlike a
    // browser, in the writing tab too, which must ignore its own news).
    const items = new Map<string, string>()
    vi.stubGlobal("localStorage", {
      setItem(key: string, value: string) {
        items.set(key, value)
        queueMicrotask(() =>
          tab.window.dispatchEvent(Object.assign(new Event("storage"), { key, newValue: value })),
        )
      },
    })
    let server: Session | null = alice
    const fetchA = vi.fn(async () => server)
    const fetchB = vi.fn(async () => server)
    const a = track(createSessionStore({ initial: alice, fetchSession: fetchA }))
    const b = track(createSessionStore({ initial: alice, fetchSession: fetchB }))
    await settle()
    expect(items.has("latch.session")).toBe(true)
    server = null
    await a.refresh()
    await settle()
    expect(fetchB).toHaveBeenCalledTimes(1)
    expect(b.status).toBe("unauthenticated")
    expect(fetchA).toHaveBeenCalledTimes(1)
    // Someone else's key, or garbage under ours, is ignored.
    tab.window.dispatchEvent(Object.assign(new Event("storage"), { key: "other", newValue: "1" }))
    tab.window.dispatchEvent(
      Object.assign(new Event("storage"), { key: "latch.session", newValue: "{" }),
    )
    await settle()
    expect(fetchB).toHaveBeenCalledTimes(1)
    b.destroy()
    server = alice
    await a.refresh()
    await settle()
    expect(fetchB).toHaveBeenCalledTimes(1)
  })
})

describe("paths", () => {
  it("fetches the session under paths.base and the server's basePath", async () => {
    setBase("/app")
    const fetch = vi.fn(async () => Response.json(alice))
    vi.stubGlobal("fetch", fetch)
    try {
      const store = track(createSessionStore({ basePath: "/api/auth", channel: null }))
      await settle()
      expect(store.data).toEqual(alice)
      expect(fetch).toHaveBeenCalledExactlyOnceWith("/app/api/auth/session", {
        credentials: "same-origin",
      })
      // Without a basePath, the default one.
      setBase("")
      await track(createSessionStore({ channel: null })).refresh()
      expect(fetch).toHaveBeenLastCalledWith("/auth/session", { credentials: "same-origin" })
    } finally {
      setBase("")
    }
  })

  it("says why when the session endpoint fails, and keeps what it knew", async () => {
    vi.stubGlobal("fetch", async () => new Response("no", { status: 503 }))
    const store = track(createSessionStore({ initial: alice, channel: null }))
    await expect(store.refresh()).rejects.toThrow("GET session answered 503")
    expect(store.data).toEqual(alice)
    expect(String(store.error)).toContain("503")
  })
})
