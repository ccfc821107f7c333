/**
 * The README's two commands in any order: what the demo writes into the checkout (its mailbox
 * and database under apps/demo/.data, git-ignored) is never linted, so `npm run demo` before
 * `npm test` cannot fail the test command. `node scripts/lint.mjs --list` prints what the lint
 * step checks.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))
const mail = `${root}apps/demo/.data/mailbox/lint-scope-test.json`

afterAll(() => rmSync(mail, { force: true }))

it("lints what git tracks and new files, never what the demo writes", () => {
  mkdirSync(`${root}apps/demo/.data/mailbox`, { recursive: true })
  // A mail as the demo's mailbox stores it: not formatted as Prettier would.
  writeFileSync(mail, '{"to":   "alice@example.com","subject":"Sign in"}')
  const listed = spawnSync(process.execPath, ["scripts/lint.mjs", "--list"], {
    cwd: root,
    encoding: "utf8",
  })
  expect(listed.status).toBe(0)
  const files = listed.stdout.split("\n")
  expect(files).toContain("README.md")
  expect(files).toContain("scripts/lint.mjs")
  expect(files.filter((file) => file.startsWith("apps/demo/.data"))).toEqual([])
  expect(files.filter((file) => file.includes("node_modules/"))).toEqual([])
})
