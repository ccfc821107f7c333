// Committed reports against freshly generated ones.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileDiff } from "./git.mjs"

/** The folder of a package's committed reports. */
export const reportsFolder = (pkg) => join(pkg.dir, "api")

/**
 * What differs between the committed reports and `reports`: files missing, stale or changed,
 * each with a diff a person reads (paths relative to `root`). Empty when they are the same.
 */
export function differences(root, pkg, reports) {
  const folder = reportsFolder(pkg)
  const committed = existsSync(folder)
    ? readdirSync(folder).filter((file) => file.endsWith(".api.md"))
    : []
  const scratch = mkdtempSync(join(tmpdir(), "latch-api-diff-"))
  const found = []
  try {
    for (const file of [...new Set([...committed, ...reports.keys()])].sort()) {
      const path = join(folder, file)
      const shown = relative(root, path)
      if (!reports.has(file)) {
        found.push({ file: shown, problem: "is stale: no entry point has this name any more" })
        continue
      }
      if (!committed.includes(file)) {
        found.push({ file: shown, problem: "is missing (a new entry point)" })
        continue
      }
      if (readFileSync(path, "utf8") === reports.get(file)) continue
      const generated = join(scratch, file)
      writeFileSync(generated, reports.get(file))
      const diff = fileDiff(root, path, generated)
        .replaceAll(`a${path}`, `a/${shown}`)
        .replaceAll(`b${generated}`, `b/${shown}`)
      found.push({ file: shown, problem: "differs from the API the build has", diff })
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  return found
}

/** Writes `reports` as the committed reports, removing those of entry points now gone. */
export function writeReports(pkg, reports) {
  const folder = reportsFolder(pkg)
  mkdirSync(folder, { recursive: true })
  for (const file of readdirSync(folder)) {
    if (file.endsWith(".api.md") && !reports.has(file)) rmSync(join(folder, file))
  }
  for (const [file, text] of reports) writeFileSync(join(folder, file), text)
}
