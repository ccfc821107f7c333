// `npm test`: installs what is missing (pnpm, dependencies, Debian's Chromium for the browser
// tests), builds, then runs every check and test suite: lint, types, unit and integration
// tests of each package, and the end-to-end tests in a real Chromium.
import { has, install, run } from "./lib.mjs"

function ensureChromium() {
  if (process.env.CHROMIUM_PATH || has("chromium")) return
  console.log("• installing Debian's chromium for the browser tests")
  const root = process.getuid?.() === 0
  const apt = (...args) =>
    run(root ? "apt-get" : "sudo", root ? args : ["apt-get", ...args], {
      env: { DEBIAN_FRONTEND: "noninteractive" },
    })
  apt("update")
  apt("install", "-y", "--no-install-recommends", "chromium")
}

install()
ensureChromium()
run("pnpm", ["run", "build"])
run("pnpm", ["run", "lint"])
run("pnpm", ["-r", "--if-present", "run", "typecheck"])
run("pnpm", [
  "-r",
  "--if-present",
  "--workspace-concurrency=1",
  "--filter=!latch-e2e",
  "run",
  "test",
])
run("pnpm", ["--filter", "latch-e2e", "run", "test"])
console.log("\n✓ all checks and tests passed")
