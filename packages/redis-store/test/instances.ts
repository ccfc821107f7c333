/**
 * Instances of an app for the tests: each an `Auth()` configuration with its own Redis
 * connection, store, wrapped adapter object and so session cache, over one shared database
 * adapter — and the browser steps the tests take on them.
 */
import { createClient, type RedisClientType } from "redis"
import { getSession } from "../../core/src/index.js"
import type { Adapter } from "../../core/src/adapters.js"
import { closeSessionCache, existingSessionCache } from "../../core/src/session/cache.js"
import type { AuthConfig } from "../../core/src/types.js"
import { Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { RedisStore, withRedisSessionChanges, type RedisStoreOptions } from "../src/index.js"

/** A client made with `createClient({ url })`: no modules, RESP 3 (node-redis 6's default). */
type Client = RedisClientType<{}, {}, {}, 3, {}>

export interface Instance<A extends Adapter = Adapter> {
  adapter: ReturnType<typeof withRedisSessionChanges<A>>
  config: AuthConfig
  store: RedisStore
  /** Database reads of a session (a cached read makes none). */
  reads(): number
}

export interface Cluster {
  instance<A extends Adapter>(
    db: A,
    options?: {
      config?: Partial<AuthConfig>
      store?: RedisStoreOptions
    },
  ): Promise<Instance<A>>
  /** What the instances logged, as `name: message`. */
  errors: string[]
  /** The raw clients, the first one free for direct commands. */
  clients: Client[]
  close(): Promise<void>
}

/** Instances on the Redis at `url`. */
export function cluster(url: string): Cluster {
  const clients: Client[] = []
  const adapters: Adapter[] = []
  const errors: string[] = []
  return {
    errors,
    clients,
    async instance(db, options = {}) {
      const redis = createClient({ url })
      redis.on("error", () => {})
      await redis.connect()
      clients.push(redis)
      const store = RedisStore(redis, { commandTimeoutMs: 300, heartbeatMs: 200, ...options.store })
      const adapter = withRedisSessionChanges(db, store)
      adapters.push(adapter)
      const read = adapter.getSessionAndUser!
      let reads = 0
      adapter.getSessionAndUser = (token) => {
        reads++
        return read(token)
      }
      const config = testConfig({
        adapter,
        counterStore: store.counters,
        logger: {
          error: (error) => errors.push(`${error.name}: ${error.message}`),
          warn: () => {},
          debug: () => {},
        },
        ...options.config,
        session: { strategy: "database", cache: true, ...options.config?.session },
      })
      return { adapter, config, store, reads: () => reads }
    },
    async close() {
      for (const adapter of adapters) await closeSessionCache(adapter)
      for (const client of clients) client.destroy()
    },
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

/** A request carrying `token` as the session cookie. */
export const withCookie = (token: string, path = "/") =>
  new Request(`${ORIGIN}${path}`, { headers: { cookie: `authjs.session-token=${token}` } })

export const readOn = async (on: Instance<any>, token: string) =>
  (await getSession(withCookie(token), on.config)).session

export const serving = (on: Instance<any>) => existingSessionCache(on.adapter)?.serving === true

/** Signs alice in on `on`; the session cookie's value. */
export async function signIn(on: Instance<any>): Promise<string> {
  const browser = new Browser(on.config)
  await browser.signIn()
  const token = browser.cookies.get("authjs.session-token")
  if (!token) throw new Error("the sign-in set no session cookie")
  return token
}

/** Signs out on `on` the session of `token`; the response. */
export async function signOut(on: Instance<any>, token: string) {
  const browser = new Browser(on.config)
  browser.cookies.set("authjs.session-token", token)
  const csrfToken = await browser.csrfToken()
  return browser.fetch("/auth/signout", { form: { csrfToken } })
}

/**
 * Reads `token` on `on` until it is refused, within `ms`; how long that took. Read once first
 * by the caller, so that a cached copy is what must go.
 */
export async function refusedWithin(on: Instance<any>, token: string, ms: number) {
  const from = Date.now()
  await until(async () => (await readOn(on, token)) === null, "the session to be refused", ms)
  return Date.now() - from
}

/** Every payload published on `channel`, as a raw Redis client subscribed to it sees them. */
export async function eavesdrop(client: Client, channel: string) {
  const subscriber = client.duplicate()
  subscriber.on("error", () => {})
  await subscriber.connect()
  const payloads: string[] = []
  await subscriber.subscribe(channel, (message) => void payloads.push(message))
  return {
    payloads,
    /** The payloads that are not heartbeats. */
    changes: () => payloads.filter((payload) => !payload.includes('"ping"')),
    close: () => subscriber.destroy(),
  }
}
