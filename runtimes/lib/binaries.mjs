// The runtimes' binaries, every one from the npm registry. Node.js 20 is the one running this;
// 22 and 24 come from the registry's `node` package (scripts/install-lib.mjs installs them once
// into node_modules/.cache). Bun and Deno are devDependencies of this package: their npm packages
// carry each platform's binary as an optional dependency, which pnpm installs with no install
// script (pnpm 10 runs none it was not told to), so the binary is looked up in the platform
// package itself (scripts/runtime-binary.mjs) rather than through the wrapper's postinstall.
import { spawnSync } from "node:child_process"
import { nodeBinary } from "../../scripts/install-lib.mjs"
import { runtimeBinary } from "../../scripts/runtime-binary.mjs"

/** The binary of a runtime: `node20`, `node22`, `node24`, `bun` or `deno`. */
export async function binary(name) {
  if (name.startsWith("node")) return nodeBinary(Number(name.slice(4)))
  return runtimeBinary(name, name, import.meta.url)
}

/** `--version` of a binary, first line. */
export function versionOf(binary) {
  return spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0].trim()
}
