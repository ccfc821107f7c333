/**
 * The credentials rate limit with the PostgreSQL adapter as its counter store, on PGlite and on
 * a PostgreSQL server: two app instances (two configurations, each with its own adapter object)
 * on one database count together, so an attacker gains nothing by being spread over them.
 */
import { describe, expect, it } from "vitest"
import Credentials from "../../core/src/providers/credentials.js"
import type { AuthConfig } from "../../core/src/types.js"
import { Browser, ORIGIN, testConfig } from "../../core/test/helpers/request.js"
import { PostgresAdapter } from "../src/index.js"
import { clients, useEmptyDatabase } from "./clients.js"

const OWNER = { id: "owner-1", name: "Owner", email: "owner@example.com" }
const PASSWORD = "correct horse battery staple"

let sequence = 0
const newAddress = () => `10.9.${(++sequence >> 8) & 255}.${sequence & 255}`

describe.each(clients)("credentials rate limit on $name", ({ open }) => {
  const db = useEmptyDatabase(open)

  /** Two instances of one app on the database; `calls` counts authorize across both. */
  async function twoInstances() {
    const calls: string[] = []
    const instance = (): AuthConfig => {
      const adapter = PostgresAdapter(db().client)
      return testConfig({
        adapter,
        session: { strategy: "jwt" },
        providers: [
          Credentials({
            credentials: { username: { label: "Username" }, password: { type: "password" } },
            authorize: ({ username, password }) => {
              calls.push(String(username))
              return username === "owner" && password === PASSWORD ? OWNER : null
            },
          }),
        ],
      })
    }
    return { instances: [instance(), instance()] as const, calls }
  }

  function browserAt(config: AuthConfig, address: string): Browser {
    const browser = new Browser(config)
    browser.clientAddress = address
    return browser
  }

  async function attempt(browser: Browser, username: string, password: string) {
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/callback/credentials", {
      form: { csrfToken, username, password },
    })
    const location = new URL(response.headers.get("location")!, ORIGIN)
    return {
      signedIn: !location.searchParams.has("error"),
      code: location.searchParams.get("code"),
      retryAfter: response.headers.get("retry-after"),
    }
  }

  it("counts one attacker's attempts on both instances together, in the counters table", async () => {
    const { instances, calls } = await twoInstances()
    const address = newAddress()
    const codes: (string | null)[] = []
    for (let i = 0; i < 12; i++) {
      // Every other attempt on the other instance.
      codes.push((await attempt(browserAt(instances[i % 2]!, address), "owner", `x${i}`)).code)
    }
    expect(calls).toHaveLength(5)
    expect(codes.slice(5)).toEqual(Array(7).fill("rate_limited"))

    const { rows } = await db().client.query("select key, count, expires from counters")
    const stored = rows as { key: string; count: number; expires: Date }[]
    expect(stored.length).toBeGreaterThan(0)
    for (const row of stored) {
      expect(row.key).toMatch(
        /^credentials:(pair|client|identifier|known):([0-9a-f]{32}|[0-9a-f]{64})(:\d+)+(:ok|:epoch)?$/,
      )
      expect(row.expires).toBeInstanceOf(Date)
    }
    const text = JSON.stringify(stored)
    expect(text).not.toContain("owner")
    expect(text).not.toContain(address)

    // The owner, from another address, on either instance: in.
    expect((await attempt(browserAt(instances[1], newAddress()), "owner", PASSWORD)).signedIn).toBe(
      true,
    )
  })

  it("holds against attempts sent at once to both instances", async () => {
    const { instances, calls } = await twoInstances()
    const address = newAddress()
    const browsers = instances.map((config) => browserAt(config, address))
    const tokens = await Promise.all(browsers.map((browser) => browser.csrfToken()))
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        browsers[i % 2]!.fetch("/auth/callback/credentials", {
          form: { csrfToken: tokens[i % 2]!, username: "owner", password: `parallel-${i}` },
        }),
      ),
    )
    expect(calls.length).toBeLessThanOrEqual(5)
    // Every attempt was counted in the database, one atomic upsert each.
    const { rows } = await db().client.query(
      "select count from counters where key like 'credentials:pair:%'",
    )
    expect(rows).toEqual([{ count: 40 }])
  })

  it("remembers a known pair on one instance for the other, through a flood of the account", async () => {
    const { instances, calls } = await twoInstances()
    const home = newAddress()
    expect((await attempt(browserAt(instances[0], home), "owner", PASSWORD)).signedIn).toBe(true)
    for (let i = 0; i < 25; i++) {
      await attempt(browserAt(instances[i % 2]!, newAddress()), "owner", `guess-${i}`)
    }
    expect(calls).toHaveLength(1 + 20)
    const stranger = await attempt(browserAt(instances[1], newAddress()), "owner", PASSWORD)
    expect(stranger.code).toBe("rate_limited")
    expect(Number(stranger.retryAfter)).toBeGreaterThanOrEqual(1)
    expect((await attempt(browserAt(instances[1], home), "owner", PASSWORD)).signedIn).toBe(true)
    const { rows } = await db().client.query(
      "select expires from counters where key like 'credentials:known:%'",
    )
    // Known for 30 to 60 days: the mark lasts until the end of the next 30-day bucket.
    expect(rows).toHaveLength(1)
    const days = ((rows[0] as { expires: Date }).expires.getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(30)
    expect(days).toBeLessThanOrEqual(60)
  })
})
