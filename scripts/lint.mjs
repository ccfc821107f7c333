// `pnpm run lint`: no import cycle in packages/*/src (scripts/cycles.mjs), then ESLint and
// Prettier on what git tracks (and new files not yet added, unless git ignores them) — never on what the demo, the tests or the benchmarks write into the
// checkout (the demo's mailbox and database under apps/demo/.data, test results, builds), so the
// README's commands may run in any order. Outside a git checkout (an unpacked archive), the whole
// tree, with the tools' own ignore files.
import { spawnSync } from "node:child_process"
import { root } from "./lib.mjs"

/** Runs `pnpm exec <tool> …`; on failure, names the tool (not the hundreds of files). */
function run(tool, args) {
  const result = spawnSync("pnpm", ["exec", tool, ...args], { cwd: root, stdio: "inherit" })
  if (result.status !== 0) {
    console.error(`\n✗ ${tool} found problems (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
}

/** No import cycle in the published packages' sources (scripts/cycles.mjs says why). */
function cycles() {
  const result = spawnSync(process.execPath, ["scripts/cycles.mjs"], {
    cwd: root,
    stdio: "inherit",
  })
  if (result.status !== 0) {
    console.error(
      `\n✗ the import-cycle check found problems (exit ${result.status ?? result.signal})`,
    )
    process.exit(result.status ?? 1)
  }
}

/** The repository's files, relative to the root, or `undefined` outside a git checkout. */
function repositoryFiles() {
  const listed = spawnSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
  )
  if (listed.status !== 0) return undefined
  // A file deleted in the working tree but still in the index is listed: skip what is gone.
  const deleted = new Set(
    spawnSync("git", ["ls-files", "--deleted", "-z"], { cwd: root, encoding: "utf8" })
      .stdout.split("\0")
      .filter(Boolean),
  )
  return listed.stdout.split("\0").filter((file) => file && !deleted.has(file))
}

const files = repositoryFiles()
if (process.argv.includes("--list")) {
  // What would be linted, one per line (for the test that the demo's own files are not).
  console.log((files ?? ["."]).join("\n"))
} else if (!files) {
  cycles()
  run("eslint", ["."])
  run("prettier", ["--check", "."])
} else {
  cycles()
  const scripts = files.filter((file) => /\.(c|m)?(j|t)s$/.test(file))
  // Explicit files skip ESLint's directory walk but not its `ignores`: say nothing of those.
  run("eslint", ["--no-warn-ignored", ...scripts])
  // Prettier still reads .prettierignore for files named explicitly; unknown kinds are skipped.
  run("prettier", ["--check", "--ignore-unknown", ...files])
}
