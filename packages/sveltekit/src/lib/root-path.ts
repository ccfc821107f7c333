/**
 * `paths.base` + "/" as `$app/paths` tells it, on every SvelteKit this package supports:
 * `resolve("/")` where there is one (SvelteKit ≥ 2.26, and 3, whose `$app/paths` no longer
 * exports `base`), else `base + "/"`. Both name the same path; both are relative to the page
 * ("./", "../") on the server while a page renders with `paths.relative` (the default).
 */
import * as paths from "$app/paths"

// Read through the module's namespace object: a named import of an export the installed
// SvelteKit lacks fails the app's build, a missing property is `undefined`. Cast where read, not
// once into a constant: a constant is one more name in every page's bundle.
interface AppPaths {
  resolve?: (path: "/", params: Record<string, string>) => string
  base?: string
}

/** `paths.base` + "/", e.g. "/" or "/app/" (or "./", "../" while a page renders). */
export const rootPath = (): string =>
  (paths as AppPaths).resolve?.("/", {}) ?? `${(paths as AppPaths).base ?? ""}/`
