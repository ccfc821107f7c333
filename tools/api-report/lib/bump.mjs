// The bump check: a package whose reports changed since its baseline must be bumped enough by
// its pending changesets (or by its version, once `changeset version` has consumed them).
//
// Baseline: the reports as of the package's last release, the newest git tag `<name>@<version>`
// (the tags `changeset publish` makes); with no such tag, the merge base with `main` (on `main`
// itself, the last commit: the committed reports). A baseline without reports for the package
// (they did not exist yet) is no baseline: nothing is required.
//
// Classification, from the diff of the reports: a declaration line removed (or changed: a
// change is a removal and an addition) is breaking; only lines added is an addition. Comment and
// blank lines do not count.
//
// Policy (docs/stability.md): from 1.0.0, breaking needs `major` and an addition `minor`. While
// the major version is 0, npm's caret range treats the minor as the major (`^0.1.0` accepts
// 0.1.x, never 0.2.0), so the requirement moves one place down: breaking needs `minor`, an
// addition `patch`. Leaving 0.x is a deliberate `major` changeset.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join, relative } from "node:path"
import { git } from "./git.mjs"

const LEVELS = ["none", "patch", "minor", "major"]
const rank = (level) => LEVELS.indexOf(level)
export const higher = (a, b) => (rank(a) >= rank(b) ? a : b)

/** Whether a line of a report is a declaration (not a comment, a fence or blank). */
const counts = (line) => {
  const text = line.trim()
  return text !== "" && !text.startsWith("//") && !text.startsWith("```") && !text.startsWith(">")
}

/**
 * Classifies a unified diff of reports.
 * @returns {{ change: "none" | "addition" | "breaking", removed: string[], added: string[] }}
 */
export function classify(diff) {
  const removed = []
  const added = []
  for (const line of diff.split("\n")) {
    if (line.startsWith("---") || line.startsWith("+++")) continue
    if (line.startsWith("-") && counts(line.slice(1))) removed.push(line.slice(1))
    if (line.startsWith("+") && counts(line.slice(1))) added.push(line.slice(1))
  }
  const change = removed.length > 0 ? "breaking" : added.length > 0 ? "addition" : "none"
  return { change, removed, added }
}

/** The bump a change requires of a package at `version` (the baseline's). */
export function requiredBump(version, change) {
  if (change === "none") return "none"
  const major = Number(version.split(".")[0])
  if (major >= 1) return change === "breaking" ? "major" : "minor"
  return change === "breaking" ? "minor" : "patch"
}

/** The bump from one version to another ("none" when not higher). */
export function versionBump(from, to) {
  const [a, b] = [from, to].map((v) => v.split("-")[0].split(".").map(Number))
  if (b[0] > a[0]) return "major"
  if (b[0] === a[0] && b[1] > a[1]) return "minor"
  if (b[0] === a[0] && b[1] === a[1] && b[2] > a[2]) return "patch"
  return "none"
}

/**
 * The highest bump the pending changesets (`.changeset/*.md`) ask for each package.
 * @returns {Map<string, string>} package name → "patch" | "minor" | "major"
 */
export function changesetBumps(changesetDir) {
  const bumps = new Map()
  if (!existsSync(changesetDir)) return bumps
  for (const file of readdirSync(changesetDir)) {
    if (!file.endsWith(".md") || file === "README.md") continue
    const text = readFileSync(join(changesetDir, file), "utf8").replaceAll("\r\n", "\n")
    const front = /^---\n([\s\S]*?)\n---/.exec(text)
    if (!front) continue
    for (const line of front[1].split("\n")) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line)
      if (entry) bumps.set(entry[1], higher(bumps.get(entry[1]) ?? "none", entry[2]))
    }
  }
  return bumps
}

/** The newest release tag of a package (`@latch/core@0.2.0`), or undefined. */
function releaseTag(root, name) {
  const tags = (git(root, "tag", "--list", `${name}@*`) ?? "").split("\n").filter(Boolean)
  const version = (tag) =>
    tag
      .slice(name.length + 1)
      .split("-")[0]
      .split(".")
      .map(Number)
  const newer = (a, b) => {
    const [x, y] = [version(a), version(b)]
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i] ? a : b
    return a
  }
  return tags.length ? tags.reduce(newer) : undefined
}

/** The commit the reports are compared with, and why that one. */
export function baseline(root, name, base) {
  if (base) return { ref: base, why: `${base} (--base)` }
  const tag = releaseTag(root, name)
  if (tag) return { ref: tag, why: `the last release, tag ${tag}` }
  for (const main of ["main", "origin/main"]) {
    const base = git(root, "merge-base", "HEAD", main)?.trim()
    if (base)
      return { ref: base, why: `no release tag: the merge base with ${main}, ${base.slice(0, 12)}` }
  }
  return undefined
}

/**
 * Checks one package. Its reports in the working tree are compared with the baseline's (or
 * with those of the commit `override` names).
 * @returns {{ ok: boolean, message: string }}
 */
export function checkBump(root, pkg, changesets, override) {
  const base = baseline(root, pkg.name, override)
  if (!base) return { ok: true, message: `${pkg.name}: no git history, no baseline` }
  const folder = relative(root, join(pkg.dir, "api"))
  if (!git(root, "ls-tree", "-r", "--name-only", base.ref, "--", folder)?.trim()) {
    return {
      ok: true,
      message: `${pkg.name}: no reports at the baseline (${base.why}); nothing to compare`,
    }
  }
  let diff = git(root, "diff", "--no-color", "--unified=0", base.ref, "--", folder) ?? ""
  // Report files git does not track yet (a new entry point) are additions too.
  for (const file of (git(root, "ls-files", "--others", "--exclude-standard", "--", folder) ?? "")
    .split("\n")
    .filter(Boolean)) {
    diff += readFileSync(join(root, file), "utf8").replace(/^/gm, "+")
  }
  const { change, removed, added } = classify(diff)
  const manifest = (ref) =>
    JSON.parse(git(root, "show", `${ref}:${relative(root, join(pkg.dir, "package.json"))}`) ?? "{}")
  const baseVersion = manifest(base.ref).version ?? pkg.version
  const required = requiredBump(baseVersion, change)
  const declared = higher(changesets.get(pkg.name) ?? "none", versionBump(baseVersion, pkg.version))
  const what =
    change === "none"
      ? "reports unchanged"
      : `${change} (${removed.length} line(s) removed, ${added.length} added)`
  const summary = `${pkg.name}@${baseVersion}: ${what} since ${base.why}`
  if (rank(declared) >= rank(required)) {
    return { ok: true, message: `${summary}; bump ${declared} ≥ ${required} required` }
  }
  const sample = removed.length ? removed : added
  return {
    ok: false,
    message:
      `${summary}\n  requires a "${required}" bump of ${pkg.name}; the pending changesets and ` +
      `version give "${declared}".\n  ${change === "breaking" ? "Removed or changed" : "Added"}:\n` +
      sample
        .slice(0, 12)
        .map((line) => `    ${line.trim()}`)
        .join("\n") +
      (sample.length > 12 ? `\n    … and ${sample.length - 12} more` : "") +
      `\n  Add a changeset (\`pnpm changeset\`, or a file in .changeset/) with "${pkg.name}": ` +
      `${required}, describing the change for users (see docs/stability.md).`,
  }
}
