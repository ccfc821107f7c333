// The built site's files, and which file a URL path serves: what a static host does with
// adapter-static's output (`/a/b` → `a/b.html`, or `a/b/index.html`; `/` → `index.html`).
import { existsSync, readdirSync, statSync } from "node:fs"
import path from "node:path"
import { docsDir } from "../src/lib/content/paths.js"

export const buildDir = path.join(docsDir, "build")

/**
 * @param {string} pathname a URL's path, decoded
 * @returns {string | undefined} the file, or undefined when none serves it
 */
export function fileFor(pathname) {
  const clean = path.posix.normalize(pathname).replace(/^\/+/, "")
  if (clean.startsWith("..")) return undefined
  const candidates = clean === "" ? ["index.html"] : [clean, `${clean}.html`, `${clean}/index.html`]
  for (const candidate of candidates) {
    const file = path.join(buildDir, candidate)
    if (existsSync(file) && statSync(file).isFile()) return file
  }
  return undefined
}

/**
 * The file a request's raw URL path serves, or undefined: a path that does not decode (`%E0%A4%A`)
 * or holds a NUL byte serves nothing rather than throwing in the server, and no path leaves the
 * build (`/..%2f..%2fpackage.json` stays inside it).
 *
 * @param {string} rawPathname the path as the request line gives it, still percent-encoded
 * @returns {string | undefined}
 */
export function fileForRequestPath(rawPathname) {
  let pathname
  try {
    pathname = decodeURIComponent(rawPathname)
  } catch {
    return undefined
  }
  if (pathname.includes("\0")) return undefined
  const file = fileFor(pathname)
  return file && path.relative(buildDir, file).startsWith("..") ? undefined : file
}

/** @returns {string[]} every HTML file of the build, absolute */
export function htmlFiles(dir = buildDir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return htmlFiles(full)
    return entry.name.endsWith(".html") ? [full] : []
  })
}
