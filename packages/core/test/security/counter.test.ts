import { describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { hmacSha256Hex } from "../../src/lib/crypto.js"
import { counterKey, counters, counterStore } from "../../src/security/counter.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { testConfig } from "../helpers/request.js"

const inAMinute = () => new Date(Date.now() + 60_000)

describe("counters", () => {
  it("use the adapter's incrementCounter, so every instance shares them", async () => {
    const adapter = memoryAdapter()
    const one = counters(resolveConfig(testConfig({ adapter })))
    const two = counters(resolveConfig(testConfig({ adapter })))
    expect(await one("k", inAMinute())).toBe(1)
    expect(await two("k", inAMinute())).toBe(2)
    expect(adapter.counters.get("k")!.count).toBe(2)
  })

  it("turn a failing incrementCounter into an AdapterError", async () => {
    const adapter = memoryAdapter()
    adapter.incrementCounter = () => {
      throw new Error("connection refused")
    }
    const increment = counters(resolveConfig(testConfig({ adapter })))
    await expect(increment("k", inAMinute())).rejects.toMatchObject({ type: "AdapterError" })
  })

  it("fall back to memory with one memory-counter warning per process", async () => {
    const warn = vi.fn()
    const logger = { warn, error() {}, debug() {} }
    const config = resolveConfig(testConfig({ logger }))
    const increment = counters(config)
    expect(await increment("fallback", inAMinute())).toBe(1)
    expect(await counters(config)("fallback", inAMinute())).toBe(2)
    expect(await increment("fallback-other", inAMinute())).toBe(1)
    // Another configuration object, as a lazy configuration makes per request: no new warning.
    counters(resolveConfig(testConfig({ logger })))
    expect(warn.mock.calls).toEqual([["memory-counter"]])
  })

  it("in memory, are one store per process, whatever the configuration object", async () => {
    const one = counters(resolveConfig(testConfig()))
    const two = counters(resolveConfig(testConfig({ basePath: "/elsewhere" })))
    expect(await one("shared", inAMinute())).toBe(1)
    expect(await two("shared", inAMinute())).toBe(2)
    // Kept on globalThis under a registered symbol: a second copy of the module finds it.
    const store = (globalThis as Record<symbol, { increment: unknown }>)[
      Symbol.for("latch.memory-counters")
    ]
    expect(store?.increment).toBe(one)
  })

  it("in memory, restart an expired counter", async () => {
    const increment = counters(resolveConfig(testConfig()))
    expect(await increment("expiring", new Date(Date.now() - 1))).toBe(1)
    expect(await increment("expiring", inAMinute())).toBe(1)
    expect(await increment("expiring", inAMinute())).toBe(2)
  })

  it("keys are the HMAC-SHA-256 of Web Crypto, on Node's fast path too", async () => {
    // Instances on different runtimes (Node, an edge worker) sharing a store must agree on keys.
    const config = resolveConfig(testConfig())
    const expected = await hmacSha256Hex(config.secrets[0]!, "email:ip\u0000192.0.2.1")
    expect(await counterKey(config, "email:ip", "192.0.2.1")).toBe(`email:ip:${expected}`)
  })

  it("keys hide the value counted and differ per prefix and secret", async () => {
    const config = resolveConfig(testConfig())
    const key = await counterKey(config, "email:address", "alice@example.com")
    expect(key).toMatch(/^email:address:[0-9a-f]{64}$/)
    expect(key).not.toContain("alice")
    expect(await counterKey(config, "email:ip", "alice@example.com")).not.toBe(key)
    const other = resolveConfig(testConfig({ secret: "another-secret-that-is-long-enough-012345" }))
    expect(await counterKey(other, "email:address", "alice@example.com")).not.toBe(key)
  })

  it("read the adapter's getCounter without counting, and an expired counter as null", async () => {
    const adapter = memoryAdapter()
    const store = counterStore(resolveConfig(testConfig({ adapter })))
    expect(await store.get("read")).toBeNull()
    const expires = inAMinute()
    await store.increment("read", expires)
    await store.increment("read", expires)
    expect(await store.get("read")).toEqual({ count: 2, expires })
    expect(await store.get("read")).toEqual({ count: 2, expires })
    await store.increment("gone", new Date(Date.now() - 1))
    expect(await store.get("gone")).toBeNull()
  })

  it("turn a failing getCounter into an AdapterError", async () => {
    const adapter = memoryAdapter()
    adapter.getCounter = () => {
      throw new Error("connection refused")
    }
    const store = counterStore(resolveConfig(testConfig({ adapter })))
    await expect(store.get("k")).rejects.toMatchObject({ type: "AdapterError" })
  })

  it("in memory, can be read without counting", async () => {
    const store = counterStore(resolveConfig(testConfig()))
    expect(await store.get("memory-read")).toBeNull()
    await store.increment("memory-read", inAMinute())
    expect((await store.get("memory-read"))?.count).toBe(1)
    expect(await store.increment("memory-read", inAMinute())).toBe(2)
  })

  it("prefer the counterStore to the adapter, for every counter, its failures as AdapterError", async () => {
    const adapter = memoryAdapter()
    const calls: string[] = []
    const config = resolveConfig(
      testConfig({
        adapter,
        counterStore: {
          increment: (key) => {
            calls.push(`increment ${key}`)
            if (key === "broken") throw new Error("down")
            return 7
          },
          get: (key) => {
            calls.push(`get ${key}`)
            // A store that serialises dates hands back strings: still a reading.
            return { count: 3, expires: new Date(Date.now() + 60_000).toISOString() as never }
          },
        },
      }),
    )
    expect(await counters(config)("a", inAMinute())).toBe(7)
    expect((await counterStore(config).get("b"))?.expires).toBeInstanceOf(Date)
    await expect(counters(config)("broken", inAMinute())).rejects.toMatchObject({
      type: "AdapterError",
      message: "counterStore.increment failed",
    })
    expect(calls).toEqual(["increment a", "get b", "increment broken"])
    expect(adapter.counters.size).toBe(0)
  })
})
