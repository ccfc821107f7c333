// Where the repository is: the site's pages are its Markdown files, read at build time. Found by
// walking up from the working directory to the workspace's root, because the bundled server code
// that prerenders the pages no longer lives beside this file.
import { existsSync } from "node:fs"
import path from "node:path"

function findRoot() {
  let dir = process.cwd()
  while (!existsSync(path.join(dir, "pnpm-workspace.yaml"))) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error("the docs are built inside the Latch repository")
    dir = parent
  }
  return dir
}

/** The repository's root. */
export const repoRoot = findRoot()

/** The docs site's package folder. */
export const docsDir = path.join(repoRoot, "apps/docs")

/** Where `scripts/reference.mjs` writes API Extractor's doc models (git-ignored). */
export const generatedDir = path.join(docsDir, ".generated")
