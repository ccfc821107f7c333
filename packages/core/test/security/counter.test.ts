import { describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { counterKey, counters } from "../../src/security/counter.js"
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

  it("keys hide the value counted and differ per prefix and secret", async () => {
    const config = resolveConfig(testConfig())
    const key = await counterKey(config, "email:address", "alice@example.com")
    expect(key).toMatch(/^email:address:[0-9a-f]{64}$/)
    expect(key).not.toContain("alice")
    expect(await counterKey(config, "email:ip", "alice@example.com")).not.toBe(key)
    const other = resolveConfig(testConfig({ secret: "another-secret-that-is-long-enough-012345" }))
    expect(await counterKey(other, "email:address", "alice@example.com")).not.toBe(key)
  })
})
