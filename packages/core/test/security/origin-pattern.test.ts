import { describe, expect, it } from "vitest"
import { isAllowedOrigin, parseOriginPatterns } from "../../src/security/origin-pattern.js"

describe("origin patterns", () => {
  it.each<[pattern: string, origin: string, allowed: boolean]>([
    ["https://staging.example.com", "https://staging.example.com", true],
    ["https://staging.example.com/", "https://staging.example.com", true],
    ["HTTPS://Staging.Example.com", "https://staging.example.com", true],
    ["https://staging.example.com:443", "https://staging.example.com", true],
    ["https://staging.example.com", "http://staging.example.com", false],
    ["https://staging.example.com", "https://staging.example.com:8443", false],
    ["https://staging.example.com", "https://staging.example.com.evil.example", false],
    ["https://staging.example.com", "https://evilstaging.example.com", false],
    ["http://localhost:3000", "http://localhost:3000", true],
    ["http://localhost:3000", "http://localhost:3001", false],
    ["https://myapp-*-team.vercel.app", "https://myapp-git-fix-1-team.vercel.app", true],
    ["https://myapp-*-team.vercel.app", "https://myapp--team.vercel.app", false],
    ["https://myapp-*-team.vercel.app", "https://myapp-a.b-team.vercel.app", false],
    ["https://myapp-*-team.vercel.app", "https://evil-myapp-x-team.vercel.app", false],
    ["https://*.example.com", "https://pr-1.example.com", true],
    ["https://*.example.com", "https://a.b.example.com", false],
    ["https://*.example.com", "https://example.com", false],
    ["https://*.example.com", "https://pr-1.example.com.evil.example", false],
    ["https://*.example.com", "https://pr_1.example.com", false],
  ])("%s against %s → %s", (pattern, origin, allowed) => {
    expect(isAllowedOrigin(origin, parseOriginPatterns([pattern]))).toBe(allowed)
  })

  it("reads a comma-separated list and skips empty entries", () => {
    const patterns = parseOriginPatterns(" https://a.example.com , ,https://b.example.com")
    expect(patterns).toHaveLength(2)
    expect(isAllowedOrigin("https://b.example.com", patterns)).toBe(true)
  })

  it("allows nothing without a list", () => {
    expect(isAllowedOrigin("https://a.example.com", parseOriginPatterns(undefined))).toBe(false)
  })
})
