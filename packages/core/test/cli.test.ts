/**
 * The `latch` command as npm installs it: the `bin` of package.json, built, run by Node in a
 * child process (the package is built before its tests run).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { MIN_SECRET_LENGTH } from "../src/config/assert.js"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
const bin = fileURLToPath(new URL(`../${manifest.bin.latch}`, import.meta.url))

function latch(...args: string[]): { stdout: string; stderr: string; status: number | null } {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm run build\` first`)
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" })
  return { stdout: result.stdout, stderr: result.stderr, status: result.status }
}

const BASE64URL_33_BYTES = /^[A-Za-z0-9_-]{44}$/

describe("latch secret", () => {
  it("prints one .env line with a fresh secret of 33 random bytes", () => {
    const { stdout, stderr, status } = latch("secret")
    expect(status).toBe(0)
    expect(stderr).toBe("")
    const match = /^AUTH_SECRET=(\S+)\n$/.exec(stdout)
    expect(match, stdout).not.toBeNull()
    const value = match![1]!
    expect(value).toMatch(BASE64URL_33_BYTES)
    expect(Buffer.from(value, "base64url")).toHaveLength(33)
    expect(value.length).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH)
  })

  it("prints a different secret on every run", () => {
    const runs = [latch("secret", "--raw"), latch("secret", "--raw"), latch("secret")]
    const values = runs.map(({ stdout }) => stdout.trim().replace(/^AUTH_SECRET=/, ""))
    for (const value of values) expect(value).toMatch(BASE64URL_33_BYTES)
    expect(new Set(values).size).toBe(3)
  })

  it("prints the value alone with --raw", () => {
    const { stdout, status } = latch("secret", "--raw")
    expect(status).toBe(0)
    expect(stdout).toMatch(/^[A-Za-z0-9_-]{44}\n$/)
  })

  it("refuses an unknown option with exit code 2 and the usage", () => {
    const { stdout, stderr, status } = latch("secret", "--length=8")
    expect(status).toBe(2)
    expect(stdout).toBe("")
    expect(stderr).toContain("unknown option for secret: --length=8")
    expect(stderr).toContain("Usage: latch <command>")
  })
})

describe("latch", () => {
  it.each([["--help"], ["-h"], ["help"], ["secret", "--help"]])(
    "%s prints the usage to stdout and exits with 0",
    (...args) => {
      const { stdout, stderr, status } = latch(...args)
      expect(status).toBe(0)
      expect(stderr).toBe("")
      expect(stdout).toContain("Usage: latch <command>")
      expect(stdout).toContain("secret")
      expect(stdout).toContain("npx @latch/core secret")
    },
  )

  it("prints the package's version with --version", () => {
    const { stdout, status } = latch("--version")
    expect(status).toBe(0)
    expect(stdout).toBe(`${manifest.version}\n`)
  })

  it.each([
    [["bogus"], "unknown command: bogus"],
    [[], "missing command"],
  ])("%j exits with 2 and prints the usage to stderr", (args, message) => {
    const { stdout, stderr, status } = latch(...args)
    expect(status).toBe(2)
    expect(stdout).toBe("")
    expect(stderr).toContain(`latch: ${message}`)
    expect(stderr).toContain("Usage: latch <command>")
  })

  it("starts with a shebang, so that npm can link it as an executable", () => {
    expect(readFileSync(bin, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node")
  })
})
