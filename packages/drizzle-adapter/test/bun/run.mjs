// Runs test/bun/ under `bun test`: bun:sqlite exists only in Bun. The binary is the npm
// registry's (the `bun` package's platform binary), found as the runtimes check finds it.
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { binary } from "../../../../runtimes/lib/binaries.mjs"

const bun = await binary("bun")
const cwd = fileURLToPath(new URL("../..", import.meta.url))
const { status } = spawnSync(bun, ["test", "--timeout", "20000", "./test/bun/"], {
  cwd,
  stdio: "inherit",
})
process.exit(status ?? 1)
