/**
 * Which release the upgrade test starts from (lib/release.mjs), in a throwaway git repository:
 * a recorded commit until a tag comes, then the newest of the two; a recorded commit the
 * checkout lacks (a shallow clone) is an error that says what to do.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lastRelease } from "../lib/release.mjs"
import { totp } from "./totp.js"

const repo = mkdtempSync(join(tmpdir(), "latch-upgrade-release-"))
afterAll(() => rmSync(repo, { recursive: true, force: true }))

function git(...args: string[]): string {
  const result = spawnSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return result.stdout.trim()
}

/** A commit at `seconds` since the epoch; its id. */
function commitAt(seconds: number): string {
  writeFileSync(join(repo, "file"), String(seconds))
  git("add", "file")
  process.env.GIT_COMMITTER_DATE = `${seconds} +0000`
  try {
    git("commit", "-q", "-m", `at ${seconds}`)
  } finally {
    delete process.env.GIT_COMMITTER_DATE
  }
  return git("rev-parse", "HEAD")
}

const recorded = (commit: string) => ({
  releases: [{ version: "0.1.0", commit, packages: ["@latch/core", "@latch/pg-adapter"] }],
})

describe("the last release", () => {
  git("init", "-q")
  const first = commitAt(1_700_000_000)
  const second = commitAt(1_700_000_100)
  const third = commitAt(1_700_000_200)

  it("is the recorded commit while there is no tag", () => {
    expect(lastRelease(repo, recorded(second))).toMatchObject({
      commit: second,
      source: `releases.json (commit ${second.slice(0, 7)})`,
    })
  })

  it("is a tag on a newer commit than the recorded one", () => {
    git("tag", "@latch/pg-adapter@0.2.0", third)
    expect(lastRelease(repo, recorded(second))).toMatchObject({
      commit: third,
      label: "@latch/pg-adapter@0.2.0",
      source: "git tag @latch/pg-adapter@0.2.0",
    })
    git("tag", "-d", "@latch/pg-adapter@0.2.0")
  })

  it("is the recorded commit when the tags are older, and ignores other packages' tags", () => {
    git("tag", "@latch/core@0.0.9", first)
    git("tag", "@latch/redis-store@0.3.0", third)
    expect(lastRelease(repo, recorded(second)).commit).toBe(second)
  })

  it("fails, naming the fix, when the checkout lacks the recorded commit", () => {
    expect(() => lastRelease(repo, recorded("0".repeat(40)))).toThrow(/git fetch --unshallow/)
  })
})

describe("the test's authenticator app", () => {
  it("makes RFC 6238's codes (appendix B, SHA-1, the last 6 digits)", () => {
    // The key "12345678901234567890" in base32.
    const key = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    expect(totp(key, 59_000)).toBe("287082")
    expect(totp(key, 1_111_111_109_000)).toBe("081804")
    expect(totp(key, 20_000_000_000_000)).toBe("353130")
  })
})
