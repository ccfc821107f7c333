// The published packages whose API is reported, and the formats report of each.
import { readFileSync, readdirSync, existsSync } from "node:fs"
import { join } from "node:path"
import { coreFormats } from "./formats/core.mjs"
import { drizzleAdapterFormats } from "./formats/drizzle-adapter.mjs"
import { pgAdapterFormats } from "./formats/pg-adapter.mjs"

/** Stored and wire formats per package name; a package without an entry has none to report. */
const FORMATS = {
  "@latch/core": coreFormats,
  "@latch/pg-adapter": pgAdapterFormats,
  "@latch/drizzle-adapter": drizzleAdapterFormats,
}

/**
 * Every package of `packages/` that is published (not `private`).
 * @returns {{ name: string, dir: string, version: string, formats?: Function }[]}
 */
export function publishedPackages(root) {
  const packages = []
  for (const folder of readdirSync(join(root, "packages")).sort()) {
    const manifestFile = join(root, "packages", folder, "package.json")
    if (!existsSync(manifestFile)) continue
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"))
    if (manifest.private) continue
    packages.push({
      name: manifest.name,
      dir: join(root, "packages", folder),
      version: manifest.version,
      formats: FORMATS[manifest.name],
    })
  }
  return packages
}
