// What the compat apps install besides the auth packages: SvelteKit, Svelte and the tools around
// them, either at the ranges the workspace develops against, or at the floor of
// @latch/sveltekit's peer ranges (read from packages/sveltekit/package.json when the check runs,
// as scripts/pack-check.mjs `floorDependencies()` reads them) with tools that fit that SvelteKit.
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"

import { root } from "../../../scripts/install-lib.mjs"

const TOOLS = [
  "@sveltejs/adapter-node",
  "@sveltejs/kit",
  "@sveltejs/vite-plugin-svelte",
  "svelte",
  "svelte-check",
  "typescript",
  "vite",
] as const

const sveltekitManifest = () =>
  JSON.parse(readFileSync(join(root, "packages/sveltekit/package.json"), "utf8")) as {
    peerDependencies: Record<string, string>
    devDependencies: Record<string, string>
  }

/** The ranges the workspace develops against. */
export function workspaceTooling(): Record<string, string> {
  const { devDependencies } = sveltekitManifest()
  return Object.fromEntries(TOOLS.map((name) => [name, devDependencies[name]!]))
}

/** The majors a range names (`^3.0.0 || ^4.0.0-next.1 || 5.1.0` → 3, 4, 5). */
function majors(range: string): number[] {
  return range
    .split("||")
    .map((part) => /^\s*[\^~=v]*(\d+)\./.exec(part)?.[1])
    .filter((major) => major !== undefined)
    .map(Number)
}

const major = (range: string) => majors(range)[0]!

/** A package's peer dependencies from the npm registry (the newest version `spec` matches). */
async function peersOf(spec: string): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)("npm", ["view", spec, "peerDependencies", "--json"])
  const answer = JSON.parse(stdout || "{}") as Record<string, string> | Record<string, string>[]
  return (Array.isArray(answer) ? answer.at(-1) : answer) ?? {}
}

/**
 * The newest major of `name` among `allowed`, at most the workspace's, whose peer dependencies
 * `fits` accepts (the candidates' looked up at once): the workspace's range for the workspace's
 * major, else `^<major>.0.0`.
 */
async function newest(
  name: string,
  allowed: number[],
  workspace: Record<string, string>,
  fits: (peers: Record<string, string>) => boolean,
) {
  const ours = major(workspace[name]!)
  const ranges = [...new Set(allowed)]
    .filter((m) => m <= ours)
    .sort((a, b) => b - a)
    .map((m) => (m === ours ? workspace[name]! : `^${m}.0.0`))
  const peers = await Promise.all(ranges.map((range) => peersOf(`${name}@${range}`)))
  const found = peers.findIndex(fits)
  if (found < 0) throw new Error(`no ${name} of majors ${allowed.join(", ")} fits`)
  return { range: ranges[found]!, peers: peers[found]! }
}

/**
 * The workspace's range for `name` if its major is among `allowed`, else the newest of the
 * allowed majors below it (`^<major>.0.0`).
 */
function fit(name: string, allowed: number[], workspace: Record<string, string>): string {
  const ours = major(workspace[name]!)
  if (allowed.includes(ours)) return workspace[name]!
  const lower = allowed.filter((m) => m < ours).sort((a, b) => b - a)[0]
  if (lower === undefined) throw new Error(`no ${name} major fits: ${allowed.join(", ")}`)
  return `^${lower}.0.0`
}

/** Whether version `a` (x.y.z) comes before `b`. */
function before(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map(Number))
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! < y![i]!
  return false
}

/**
 * The lowest @sveltejs/kit and svelte that @latch/sveltekit's peer ranges allow, exactly (as
 * scripts/pack-check.mjs `floorDependencies()` reads them), and the tools that fit them: the
 * newest vite-plugin-svelte that SvelteKit's peer range allows and that takes that Svelte and a
 * Vite SvelteKit takes, the newest such Vite, and the newest adapter-node whose peer range takes
 * that SvelteKit — each at the workspace's range when that fits. svelte-check and TypeScript at
 * the workspace's.
 */
export async function floorTooling(): Promise<Record<string, string>> {
  const { peerDependencies: peers } = sveltekitManifest()
  const workspace = workspaceTooling()
  const lowest = (range: string) => /^\^?(\d+\.\d+\.\d+)/.exec(range)?.[1]
  const kit = lowest(peers["@sveltejs/kit"]!)
  const svelte = lowest(peers.svelte!)
  if (!kit || !svelte) throw new Error(`no floor in ${JSON.stringify(peers)}`)
  const kitPeers = await peersOf(`@sveltejs/kit@${kit}`)
  const kitVite = majors(kitPeers.vite ?? "")
  const [plugin, adapter] = await Promise.all([
    newest(
      "@sveltejs/vite-plugin-svelte",
      majors(kitPeers["@sveltejs/vite-plugin-svelte"] ?? ""),
      workspace,
      (its) =>
        majors(its.svelte ?? "").includes(major(svelte)) &&
        majors(its.vite ?? "").some((m) => kitVite.includes(m)),
    ),
    newest(
      "@sveltejs/adapter-node",
      Array.from({ length: 4 }, (_, i) => major(workspace["@sveltejs/adapter-node"]!) - i),
      workspace,
      (its) => {
        const wanted = lowest(its["@sveltejs/kit"] ?? "")
        return !wanted || !before(kit, wanted)
      },
    ),
  ])
  const pluginVite = majors(plugin.peers.vite ?? "")
  return {
    ...workspace,
    "@sveltejs/adapter-node": adapter.range,
    "@sveltejs/kit": kit,
    "@sveltejs/vite-plugin-svelte": plugin.range,
    svelte,
    vite: fit(
      "vite",
      kitVite.filter((m) => pluginVite.includes(m)),
      workspace,
    ),
  }
}
