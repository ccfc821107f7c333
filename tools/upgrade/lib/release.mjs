// Which release the upgrade test starts from, and its packages built from git.
//
// The last release is the newest of: the git tags `@latch/core@<version>` and
// `@latch/pg-adapter@<version>` (what `changeset tag` makes at a release; the release process
// pushes them), and the lines of releases.json (releases made before tags were pushed). "Newest"
// is by the commit's time, since the two packages' version numbers are not comparable.
//
// Its sources come from `git archive` of that commit (nothing is registered in the checkout, and
// nothing is left behind if the run dies), installed from the release's own lockfile
// (`--frozen-lockfile`, offline-preferring: from pnpm's store when it has the packages) and built
// with the release's own build scripts, in the system's temporary directory. A finished build is
// kept there under the commit's name, so a second run on the same machine skips it.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The packages whose data the test makes: core's cookies, sessions and flows, pg-adapter's rows. */
export const RELEASED = ["@latch/core", "@latch/pg-adapter"]

export const here = dirname(dirname(fileURLToPath(import.meta.url)))

/** Runs a command; its trimmed output, or throws with its output when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    ...options,
  })
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim()
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status ?? result.signal})` +
        (result.error ? `: ${result.error.message}` : "") +
        (output ? `:\n${output.slice(-4000)}` : ""),
    )
  }
  return (result.stdout ?? "").trim()
}

const git = (cwd, ...args) => run("git", args, { cwd })

/**
 * The environment for the release's own pnpm: without what an outer `pnpm run` passes to its
 * scripts (`npm_config_*`, `npm_package_*`), which would apply this workspace's settings there.
 */
function releaseEnv() {
  const env = { ...process.env, CI: "true" }
  for (const name of Object.keys(env)) {
    if (/^npm_(config|package|lifecycle)_/i.test(name) || name === "PNPM_SCRIPT_SRC_DIR") {
      delete env[name]
    }
  }
  return env
}

/** The commit a ref names, or `undefined` when the checkout does not have it. */
function commitOf(cwd, ref) {
  const result = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    cwd,
    encoding: "utf8",
  })
  return result.status === 0 ? result.stdout.trim() : undefined
}

/** The release tags of the packages in `RELEASED` as `{ name, version, ref }`. */
export function releaseTags(cwd) {
  const listed = git(cwd, "tag", "--list", ...RELEASED.map((name) => `${name}@*`))
  return listed
    .split("\n")
    .filter(Boolean)
    .map((tag) => {
      const at = tag.lastIndexOf("@")
      return { name: tag.slice(0, at), version: tag.slice(at + 1), ref: tag }
    })
}

/**
 * The release to start from: `{ label, commit, source }`, `source` saying where it was found.
 * @param {string} cwd a directory of the checkout
 * @param {{ releases: { version: string, commit: string, packages: string[] }[] }} recorded
 */
export function lastRelease(cwd, recorded) {
  const candidates = []
  for (const tag of releaseTags(cwd)) {
    const commit = commitOf(cwd, tag.ref)
    if (commit) candidates.push({ label: tag.ref, commit, source: `git tag ${tag.ref}` })
  }
  for (const release of recorded.releases) {
    const commit = commitOf(cwd, release.commit)
    if (!commit) {
      throw new Error(
        `releases.json names commit ${release.commit} (${release.version}), which this ` +
          `checkout does not have. A shallow clone lacks it: run \`git fetch --unshallow\`.`,
      )
    }
    candidates.push({
      label: `${release.packages.join(", ")} ${release.version}`,
      commit,
      source: `releases.json (commit ${commit.slice(0, 7)})`,
    })
  }
  if (candidates.length === 0) throw new Error("no release: no tag and no line in releases.json")
  const time = (commit) => Number(git(cwd, "log", "-1", "--format=%ct", commit))
  return candidates
    .map((candidate) => ({ ...candidate, time: time(candidate.commit) }))
    .sort((a, b) => b.time - a.time)
    .map(({ time: _time, ...candidate }) => candidate)[0]
}

/** The recorded releases (releases.json beside this folder). */
export function recordedReleases() {
  return JSON.parse(readFileSync(join(here, "releases.json"), "utf8"))
}

/** Where a release's build is kept: the system's temporary directory, by commit. */
export const buildDir = (commit) => join(tmpdir(), `latch-release-${commit.slice(0, 12)}`)

/**
 * The release's packages, built: `{ root, commit, label, source, reused }`, `root` being the
 * unpacked repository (`packages/core/dist`, `packages/pg-adapter/dist` inside it).
 * @param {{ log?: (line: string) => void }} [options]
 */
export function buildRelease({ log = () => {} } = {}) {
  // From the top of the checkout: in a subdirectory, `git archive` takes only that directory.
  const checkout = git(here, "rev-parse", "--show-toplevel")
  const release = lastRelease(checkout, recordedReleases())
  const root = buildDir(release.commit)
  const done = join(root, ".latch-release-built")
  if (existsSync(done)) return { ...release, root, reused: true }

  log(`building ${release.label} from ${release.source} in ${root}`)
  // Built in place (pnpm's links are made for this path); a build left unfinished is redone.
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  try {
    const archive = join(root, ".source.tar")
    git(checkout, "archive", "--format=tar", "-o", archive, release.commit)
    run("tar", ["-xf", archive, "-C", root])
    rmSync(archive)
    // The release's lockfile, exactly; only the released packages and what they depend on.
    const filters = RELEASED.flatMap((name) => ["--filter", `${name}...`])
    run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", ...filters], {
      cwd: root,
      env: releaseEnv(),
    })
    for (const name of RELEASED) {
      run("pnpm", ["--filter", name, "run", "build"], { cwd: root, env: releaseEnv() })
    }
    writeFileSync(done, `${release.commit}\n`)
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }
  return { ...release, root, reused: false }
}
