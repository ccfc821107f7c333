// Shared by the root scripts: run commands, and make sure pnpm (pinned in package.json) exists.
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("..", import.meta.url))
const pinned = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).packageManager.split("@")[1]

export function run(command, args, { env, ...options } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    ...options,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1", ...env },
  })
  if (result.status !== 0) {
    console.error(
      `\n✗ ${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`,
    )
    process.exit(result.status ?? 1)
  }
}

function output(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" })
  return result.status === 0 ? result.stdout.trim() : undefined
}

/** Installs the pinned pnpm when it is missing or another version (corepack is not used). */
export function ensurePnpm() {
  if (output("pnpm", ["--version"]) === pinned) return
  console.log(`• installing pnpm ${pinned} with npm`)
  run("npm", ["install", "--global", "--no-fund", "--no-audit", `pnpm@${pinned}`])
}

/** Installs the workspace's dependencies (frozen lockfile on CI). */
export function install() {
  ensurePnpm()
  run("pnpm", ["install", ...(process.env.CI ? ["--frozen-lockfile"] : [])])
}

/** Whether a command exists on PATH. */
export function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0
}
