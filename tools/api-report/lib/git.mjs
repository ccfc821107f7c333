// The few git questions the checks ask, answered by the git command line.
import { spawnSync } from "node:child_process"

/** Runs git in `cwd`; its output, or `undefined` when it fails (not a checkout, no such ref). */
export function git(cwd, ...args) {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 })
  return result.status === 0 ? result.stdout : undefined
}

/** The unified diff of two files (`git diff --no-index`), for a person to read. */
export function fileDiff(cwd, before, after) {
  const result = spawnSync(
    "git",
    ["diff", "--no-index", "--no-color", "--unified=2", "--", before, after],
    { cwd, encoding: "utf8", maxBuffer: 1 << 28 },
  )
  return result.stdout
}
