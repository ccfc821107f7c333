import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { changesetBumps, classify, requiredBump, versionBump } from "../lib/bump.mjs"

describe("classify", () => {
  it("calls a removed declaration line breaking", () => {
    const diff = ["--- a/x", "+++ b/x", "@@ -3 +2,0 @@", "-export function gone(): void;"]
    expect(classify(diff.join("\n"))).toMatchObject({
      change: "breaking",
      removed: ["export function gone(): void;"],
    })
  })

  it("calls a changed line breaking: a change is a removal and an addition", () => {
    const diff = ["@@ -3 +3 @@", '-    sameSite: "lax";', '+    sameSite: "strict";']
    expect(classify(diff.join("\n")).change).toBe("breaking")
  })

  it("calls only added lines an addition", () => {
    const diff = ["@@ -3,0 +4 @@", "+export function added(): void;", "+"]
    expect(classify(diff.join("\n"))).toMatchObject({ change: "addition", removed: [] })
  })

  it("does not count comments, blank lines and fences", () => {
    const diff = [
      "@@ -3,3 +3,0 @@",
      '-// Warning: (ae-forgotten-export) The symbol "X" needs to be exported',
      "-",
      "-```",
    ]
    expect(classify(diff.join("\n")).change).toBe("none")
  })
})

describe("requiredBump", () => {
  it("asks major for breaking and minor for an addition from 1.0.0", () => {
    expect(requiredBump("1.4.2", "breaking")).toBe("major")
    expect(requiredBump("1.4.2", "addition")).toBe("minor")
  })

  it("moves one place down while the major is 0, as npm's caret range does", () => {
    expect(requiredBump("0.1.0", "breaking")).toBe("minor")
    expect(requiredBump("0.1.0", "addition")).toBe("patch")
    expect(requiredBump("0.0.0", "none")).toBe("none")
  })
})

describe("versionBump", () => {
  it("names the bump between two versions", () => {
    expect(versionBump("0.1.0", "0.2.0")).toBe("minor")
    expect(versionBump("0.1.0", "1.0.0")).toBe("major")
    expect(versionBump("1.2.3", "1.2.4")).toBe("patch")
    expect(versionBump("1.2.3", "1.2.3")).toBe("none")
  })
})

describe("changesetBumps", () => {
  it("keeps the highest bump each package gets from the pending changesets", () => {
    const dir = mkdtempSync(join(tmpdir(), "latch-changesets-"))
    writeFileSync(
      join(dir, "a.md"),
      '---\n"@latch/core": patch\n"@latch/sveltekit": minor\n---\n\nA.\n',
    )
    writeFileSync(join(dir, "b.md"), "---\n'@latch/core': major\n---\n\nB.\n")
    writeFileSync(join(dir, "README.md"), '---\n"@latch/redis-store": major\n---\n')
    writeFileSync(join(dir, "config.json"), "{}")
    const bumps = changesetBumps(dir)
    expect(Object.fromEntries(bumps)).toEqual({
      "@latch/core": "major",
      "@latch/sveltekit": "minor",
    })
  })
})
