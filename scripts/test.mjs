// `npm test`: installs what is missing, builds, then runs every check and test suite.
import { install, run } from "./lib.mjs"

install()
run("pnpm", ["run", "build"])
run("pnpm", ["run", "lint"])
run("pnpm", ["-r", "--if-present", "run", "typecheck"])
run("pnpm", ["-r", "--if-present", "--workspace-concurrency=1", "run", "test"])
console.log("\n✓ all checks and tests passed")
