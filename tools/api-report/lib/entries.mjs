// The public entry points of a package: every subpath of package.json "exports" that has types,
// with wildcard subpaths ("./providers/*") expanded to the files they match in the build.
import { readFileSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * @param {string} packageDir the package's folder, built
 * @returns {{ subpath: string, name: string, types: string, wildcard: boolean }[]} sorted by subpath; `name` is the
 *   report's file name ("index" for ".", "providers-github" for "./providers/github"), `types` the
 *   absolute path of its declarations
 */
export function entryPoints(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
  const entries = []
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typeof target === "object" && target !== null ? target.types : undefined
    if (typeof types !== "string") continue
    if (!subpath.includes("*")) {
      entries.push({ subpath, types: join(packageDir, types), wildcard: false })
      continue
    }
    // "./dist/providers/*.d.ts": each file of ./dist/providers ending in ".d.ts".
    const [prefix, suffix] = types.split("*")
    const directory = dirname(`${prefix}x`)
    const start = prefix.slice(directory.length + 1)
    for (const file of readdirSync(join(packageDir, directory))) {
      if (!file.startsWith(start) || !file.endsWith(suffix)) continue
      const stem = file.slice(start.length, file.length - suffix.length)
      // A wildcard that also matches the folder's index is the plain subpath, listed already.
      if (stem === "index" && manifest.exports[subpath.replace("/*", "")]) continue
      entries.push({
        subpath: subpath.replace("*", stem),
        types: join(packageDir, directory, file),
        wildcard: true,
      })
    }
  }
  return entries
    .map((entry) => ({ ...entry, name: reportName(entry.subpath) }))
    .sort((a, b) => (a.subpath < b.subpath ? -1 : a.subpath > b.subpath ? 1 : 0))
}

/** "." → "index", "./providers/github" → "providers-github". */
export function reportName(subpath) {
  return subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-")
}
