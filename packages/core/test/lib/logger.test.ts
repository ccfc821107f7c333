import { afterEach, describe, expect, it, vi } from "vitest"
import { AdapterError } from "../../src/errors.js"
import { defaultLogger } from "../../src/lib/logger.js"

describe("the default logger", () => {
  afterEach(() => vi.restoreAllMocks())

  it("prints the chain of causes under an error, from AuthError's cause.err", () => {
    const lines: string[] = []
    vi.spyOn(console, "error").mockImplementation((text: string) => void lines.push(text))
    const root = new Error("connection refused")
    const wrapped = new TypeError("fetch failed", { cause: root })
    defaultLogger.error(new AdapterError("adapter.getUser failed", { cause: wrapped }))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[latch\]\[error\] AdapterError: adapter\.getUser failed/)
    expect(lines[0]).toContain("caused by TypeError: fetch failed")
    expect(lines[0]).toContain("caused by Error: connection refused")
  })
})
