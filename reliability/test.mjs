// The harness's part of `npm test`: the two-instance checks (with the lint-scope check) under
// vitest, then a short seeded fuzz of the demo in both session strategies. Neither records
// results: docs/reliability.md comes from `pnpm fuzz`, `pnpm soak` and `run two`.
import { spawnSync } from "node:child_process"

for (const [command, args] of [
  ["pnpm", ["exec", "vitest", "run"]],
  // The demo was built by the two-instance checks just before.
  [process.execPath, ["fuzz.mjs", "--short", "--no-build"]],
]) {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: import.meta.dirname })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
