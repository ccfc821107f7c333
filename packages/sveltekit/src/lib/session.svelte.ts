/**
 * A live session for Svelte 5 components: `useSession()` and the store behind it. Its own entry
 * (`@latch/sveltekit/session`) so that the `./client` helpers stay as small as they are. The
 * session is `$state`, so markup and `$derived` follow it. The server is the truth: the session
 * is refetched when it expires, when the tab becomes visible again (throttled), optionally on an
 * interval, and when another tab of the same origin reports a different session. A change
 * learned that way re-runs the page's loads: all of them when the user changed (signed in, out,
 * as someone else, or their data), since any load may have read `locals.auth()`; only those that
 * depend on `SESSION_DEPENDENCY` when just the expiry moved.
 */
import { browser } from "$app/environment"
import { invalidate as invalidateLoads, invalidateAll as invalidateAllLoads } from "$app/navigation"
import { page } from "$app/state"
import type { Session } from "@latch/core/types"
import { actionsBase } from "./client-base.js"
import { updateSession as postSessionUpdate } from "./client.js"
import { SESSION_DEPENDENCY } from "./session-key.js"

export { SESSION_DEPENDENCY }

/** Where the session stands: not known yet, signed in, or signed out. */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated"

/** What `postMessage` sends and listeners receive; `BroadcastChannel` fits. */
export interface SessionChannel {
  postMessage(message: unknown): void
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void
  close(): void
}

/** When the store asks the server again; options of `useSession` and `createSessionStore`. */
export interface SessionRefetchOptions {
  /** The server's `basePath`, for the default fetches. @default "/auth" */
  basePath?: string
  /** Refetch when the tab becomes visible or the window gains focus. @default true */
  refetchOnFocus?: boolean
  /** The least time between two refetches on focus, in milliseconds. @default 5000 */
  focusThrottle?: number
  /** Refetch every so many milliseconds while the tab is visible; `0` for never. @default 0 */
  refetchInterval?: number
}

/** Options of `createSessionStore`; every one has a browser default. */
export interface SessionStoreOptions extends SessionRefetchOptions {
  /** The session known at start (from page data); `undefined` means unknown: fetch it. */
  initial?: Session | null | undefined
  /** Reads the current session. @default GET `{base}{basePath}/session` */
  fetchSession?: () => Promise<Session | null>
  /** Sends `update(data)` to the server. @default `updateSession` of `@latch/sveltekit/client` */
  updateSession?: (data: unknown) => Promise<Session | null>
  /**
   * Tells the other tabs; `null` for none. @default a `BroadcastChannel` named `latch.session`,
   * or, where there is none, `storage` events of the `latch.session` key of `localStorage`
   */
  channel?: SessionChannel | null
  /**
   * Called with `SESSION_DEPENDENCY` when the session's expiry moved other than through page
   * data (and when the user changed, if `invalidateAll` is `null`); `null` for nothing.
   * @default `invalidate` of `$app/navigation`
   */
  invalidate?: ((dependency: string) => unknown) | null
  /**
   * Called when the user changed other than through page data (signed in, signed out, signed in
   * as someone else, their name updated): every load of the page may have read the session
   * (`locals.auth()` in a page's load registers no dependency), so all of them run again, and a
   * page that needs a session redirects as its load says. `null`: call `invalidate` instead.
   * @default `invalidateAll` of `$app/navigation`
   */
  invalidateAll?: (() => unknown) | null
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number
}

/** A reactive session: read `data` and `status` in markup or `$derived`. */
export interface SessionStore {
  /** The last known session, or `null` (signed out, or not known yet). */
  readonly data: Session | null
  readonly status: SessionStatus
  /** Why the last refetch failed, or `null`; `data` then still holds the last known session. */
  readonly error: unknown
  /** Refetches the session; calls made while one is in flight share it. */
  refresh(): Promise<Session | null>
  /** Runs the server's `jwt` callback with `trigger: "update"` and shows the result. */
  update(data: unknown): Promise<Session | null>
  /** Stops the timers and the focus listeners, and leaves the channel. */
  destroy(): void
}

/** Messages between tabs; a fingerprint is enough to know whether to refetch. */
interface SessionMessage {
  type: "session"
  fingerprint: string
}

// A session's `expires` may lie further ahead than `setTimeout` can wait (2^31 - 1 ms, about 24
// days): a longer delay fires at once. The floor keeps a client clock that runs ahead of the
// server's from refetching in a loop while the server still answers with the same session.
const MAX_DELAY = 2 ** 31 - 1
const MIN_DELAY = 10_000

/** What identifies a session for other tabs: who, and until when. */
function fingerprintOf(session: Session | null): string {
  return session ? JSON.stringify([session.user ?? null, session.expires]) : "null"
}

/** Who the session is of, with what the server says of them: what a page's data may show. */
function userOf(session: Session | null): string {
  return JSON.stringify(session?.user ?? null)
}

function isSessionMessage(value: unknown): value is SessionMessage {
  const message = value as Partial<SessionMessage> | null
  return message?.type === "session" && typeof message.fingerprint === "string"
}

function statusOf(session: Session | null | undefined): SessionStatus {
  if (session === undefined) return "loading"
  return session ? "authenticated" : "unauthenticated"
}

const CHANNEL = "latch.session"

function openChannel(): SessionChannel | null {
  if (typeof BroadcastChannel === "function") return new BroadcastChannel(CHANNEL)
  return storageChannel()
}

/**
 * For browsers without `BroadcastChannel`: a `localStorage` key that every tab writes and the
 * others see in `storage` events (never fired in the tab that wrote). A counter makes each write
 * a change, since an event fires only when the value differs.
 */
function storageChannel(): SessionChannel | null {
  if (typeof localStorage === "undefined" || typeof addEventListener !== "function") return null
  let sent = 0
  const listeners: ((event: StorageEvent) => void)[] = []
  return {
    postMessage(message) {
      try {
        localStorage.setItem(CHANNEL, JSON.stringify({ message, sent: `${Date.now()}.${++sent}` }))
      } catch {
        // Storage full or refused (private mode): the other tabs learn at their next refetch.
      }
    },
    addEventListener(_type, listener) {
      const onStorage = (event: StorageEvent) => {
        if (event.key !== CHANNEL || !event.newValue) return
        try {
          listener({ data: (JSON.parse(event.newValue) as { message: unknown }).message })
        } catch {
          // Not ours.
        }
      }
      listeners.push(onStorage)
      addEventListener("storage", onStorage)
    },
    close() {
      for (const listener of listeners.splice(0)) removeEventListener("storage", listener)
    },
  }
}

/** Whether the page is shown; outside a browser, as if it were. */
const isVisible = () => typeof document === "undefined" || document.visibilityState !== "hidden"

/** The store, and `accept` for `useSession` to pass on newer page data. */
interface StoreHandle {
  store: SessionStore
  accept(session: Session | null): void
}

function createStore(options: SessionStoreOptions): StoreHandle {
  const {
    basePath,
    fetchSession = async () => {
      const response = await fetch(`${actionsBase(basePath)}/session`, {
        credentials: "same-origin",
      })
      if (!response.ok) throw new Error(`GET session answered ${response.status}`)
      return (await response.json()) as Session | null
    },
    updateSession = (input: unknown) => postSessionUpdate(input, { basePath }),
    now = Date.now,
    refetchOnFocus = true,
    focusThrottle = 5_000,
    refetchInterval = 0,
  } = options
  const channel = options.channel === undefined ? openChannel() : options.channel
  const invalidate = options.invalidate === undefined ? invalidateLoads : options.invalidate
  const invalidateAll =
    options.invalidateAll === undefined ? invalidateAllLoads : options.invalidateAll

  // Replaced whole, never mutated: `raw` spares the proxy.
  let data = $state.raw<Session | null | undefined>(options.initial)
  let error = $state.raw<unknown>(null)
  let inFlight: Promise<Session | null> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let destroyed = false
  // Each read or write takes a ticket; a result older than the one shown is dropped, so the
  // last call wins whatever order the answers come back in.
  let issued = 0
  let shown = 0
  // When the server last told us the session (or the page data did): focus refetches wait for
  // `focusThrottle` after it.
  let checkedAt = options.initial === undefined ? -Infinity : now()
  const cleanups: (() => void)[] = []

  function scheduleExpiry(session: Session | null | undefined): void {
    clearTimeout(timer)
    timer = undefined
    if (destroyed || !session) return
    const delay = Date.parse(session.expires) - now()
    if (Number.isNaN(delay)) return
    timer = setTimeout(
      () => void refresh().catch(() => {}),
      Math.min(Math.max(delay, MIN_DELAY), MAX_DELAY),
    )
  }

  /**
   * Shows a session. A change is told to the other tabs; one learned other than from page data
   * also re-runs loads, so that page data catches up: every load when the user changed (a page's
   * own load reads `locals.auth()` without depending on `SESSION_DEPENDENCY`, and would go on
   * showing a user who signed out), the session's loads when only the expiry moved. Learning
   * the session for the first time (a prerendered page) is no change of page data.
   */
  function show(session: Session | null, ticket: number, fromPage = false): void {
    if (ticket < shown) return
    shown = ticket
    const known = data !== undefined
    const changed = !known || fingerprintOf(data!) !== fingerprintOf(session)
    const userChanged = known && userOf(data!) !== userOf(session)
    data = session
    scheduleExpiry(session)
    if (!changed) return
    announce()
    if (!known || fromPage || destroyed) return
    if (userChanged && invalidateAll) void Promise.resolve(invalidateAll())
    else void Promise.resolve(invalidate?.(SESSION_DEPENDENCY))
  }

  function announce(): void {
    if (destroyed || !channel || data === undefined) return
    channel.postMessage({
      type: "session",
      fingerprint: fingerprintOf(data),
    } satisfies SessionMessage)
  }

  function refresh(): Promise<Session | null> {
    if (inFlight) return inFlight
    const ticket = ++issued
    inFlight = fetchSession().then(
      (session) => {
        error = null
        checkedAt = now()
        show(session, ticket)
        return session
      },
      (reason: unknown) => {
        // Keep the last known session: a network blip is not a sign-out.
        error = reason
        throw reason
      },
    )
    const done = () => (inFlight = undefined)
    inFlight.then(done, done)
    return inFlight
  }

  async function update(input: unknown): Promise<Session | null> {
    const ticket = ++issued
    const session = await updateSession(input)
    // The client answers `null` for a refused update as well as for no session: ask which.
    if (session === null) return refresh()
    show(session, ticket)
    return session
  }

  channel?.addEventListener("message", (event) => {
    if (!isSessionMessage(event.data)) return
    if (data !== undefined && event.data.fingerprint === fingerprintOf(data)) return
    void refresh().catch(() => {})
  })

  /** On focus or visibility: ask the server unless it answered within `focusThrottle`. */
  function onFocus(): void {
    if (destroyed || !isVisible() || inFlight || now() - checkedAt < focusThrottle) return
    void refresh().catch(() => {})
  }
  if (refetchOnFocus && typeof addEventListener === "function") {
    addEventListener("focus", onFocus)
    cleanups.push(() => removeEventListener("focus", onFocus))
    if (typeof document !== "undefined") {
      document.addEventListener("visibilitychange", onFocus)
      cleanups.push(() => document.removeEventListener("visibilitychange", onFocus))
    }
  }
  if (refetchInterval > 0) {
    const interval = setInterval(() => {
      if (isVisible()) void refresh().catch(() => {})
    }, refetchInterval)
    cleanups.push(() => clearInterval(interval))
  }

  if (options.initial === undefined) void refresh().catch(() => {})
  else {
    // A page (re)loaded after a sign-in or sign-out tells the tabs that have not seen it.
    scheduleExpiry(options.initial)
    announce()
  }

  const store: SessionStore = {
    get data() {
      return data ?? null
    },
    get status() {
      return statusOf(data)
    },
    get error() {
      return error
    },
    refresh,
    update,
    destroy() {
      destroyed = true
      clearTimeout(timer)
      for (const cleanup of cleanups.splice(0)) cleanup()
      channel?.close()
    },
  }
  return {
    store,
    accept(session: Session | null) {
      checkedAt = now()
      show(session, ++issued, true)
    },
  }
}

/**
 * Creates a reactive session; `useSession()` makes one per page for you. Use this one directly
 * for tests, or to choose the fetch, the channel or the clock.
 *
 * @example
 * ```ts
 * const session = createSessionStore({ initial: data.session })
 * const name = $derived(session.data?.user?.name ?? "guest")
 * ```
 */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  return createStore(options).store
}

let shared: StoreHandle | undefined
// The page data's session last passed on: navigating hands over the same layout data again,
// which must not overwrite a newer session fetched since.
let seen: string | undefined

/**
 * The session for a component. In the browser, one store per document, seeded from
 * `page.data.session` (return it from the root `+layout.server.ts`, e.g. with `loadSession`) and
 * kept up to date with it. `options` apply to that one store: the first call's are used.
 * On the server, a read-only view of `page.data.session`: module state would be shared
 * between requests, so between users. Call it while a component initialises (it registers an
 * `$effect`), as with `getContext`.
 *
 * @example
 * ```svelte
 * <script lang="ts">
 *   import { useSession } from "@latch/sveltekit/session"
 *   const session = useSession()
 * </script>
 * {#if session.status === "authenticated"}{session.data?.user?.name}{/if}
 * ```
 */
export function useSession(options: SessionRefetchOptions = {}): SessionStore {
  const seed = (page.data as { session?: Session | null }).session
  if (!browser) return serverView(seed)
  if (!shared) {
    shared = createStore({ ...options, initial: seed })
    seen = seed === undefined ? undefined : fingerprintOf(seed)
  }
  const { accept } = shared
  // Page data changes without a reload after an enhanced form action or `invalidateAll()`.
  $effect(() => {
    const latest = (page.data as { session?: Session | null }).session
    if (latest === undefined || fingerprintOf(latest) === seen) return
    seen = fingerprintOf(latest)
    accept(latest)
  })
  return shared.store
}

function serverView(session: Session | null | undefined): SessionStore {
  return {
    data: session ?? null,
    status: statusOf(session),
    error: null,
    refresh: async () => session ?? null,
    update: () => Promise.reject(new Error("session.update() runs in the browser only")),
    destroy() {},
  }
}
