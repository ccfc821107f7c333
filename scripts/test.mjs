// `npm test`: installs what is missing (pnpm, dependencies, Debian's Chromium and PostgreSQL),
// builds, then runs every check and test suite: lint, types, the published packages' manifests
// and types (publint, attw), unit and integration tests of each package (the adapter's against
// PGlite and a throwaway PostgreSQL cluster), the packed packages installed with npm in fresh
// SvelteKit apps outside the workspace (SvelteKit 2; SvelteKit 2.13.0 with Svelte 5.0.0, then
// Svelte 4.0.0, the lowest the peer ranges allow; SvelteKit 3 on Node.js 22, with @latch/sveltekit's tests run
// against it too), and the end-to-end tests in a real Chromium.
import { existsSync, readdirSync } from "node:fs"
import { has, install, run } from "./lib.mjs"

/**
 * Debian packages the tests need: Chromium (browser tests), PostgreSQL (adapter tests) and
 * zbar-tools (core's QR code tests read their symbols with its zbarimg).
 */
function missingSystemPackages() {
  const missing = []
  if (!process.env.CHROMIUM_PATH && !has("chromium")) missing.push("chromium")
  const postgres = "/usr/lib/postgresql"
  const hasPostgres =
    process.env.PG_BIN ||
    (existsSync(postgres) &&
      readdirSync(postgres).some((version) => existsSync(`${postgres}/${version}/bin/initdb`)))
  if (!hasPostgres) missing.push("postgresql")
  if (!has("zbarimg")) missing.push("zbar-tools")
  return missing
}

function ensureSystemPackages() {
  const missing = missingSystemPackages()
  if (missing.length === 0) return
  console.log(`• installing Debian's ${missing.join(" and ")} for the tests`)
  const root = process.getuid?.() === 0
  const apt = (...args) =>
    run(root ? "apt-get" : "sudo", root ? args : ["apt-get", ...args], {
      env: { DEBIAN_FRONTEND: "noninteractive" },
    })
  apt("update")
  apt("install", "-y", "--no-install-recommends", ...missing)
}

install()
ensureSystemPackages()
run("pnpm", ["run", "build"])
run("pnpm", ["run", "lint"])
run("pnpm", ["-r", "--if-present", "run", "typecheck"])
run("pnpm", ["-r", "--if-present", "run", "check:package"])
run("pnpm", [
  "-r",
  "--if-present",
  "--workspace-concurrency=1",
  "--filter=!latch-e2e",
  "run",
  "test",
])
run(process.execPath, ["scripts/pack-check.mjs"])
run(process.execPath, ["scripts/pack-check.mjs", "--kit", "floor"])
run(process.execPath, ["scripts/kit3-check.mjs"])
run("pnpm", ["--filter", "latch-e2e", "run", "test"])
console.log("\n✓ all checks and tests passed")
