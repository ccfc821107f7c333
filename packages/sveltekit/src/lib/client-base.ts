/**
 * Where the actions live for the browser helpers: `paths.base` + the server's `basePath`.
 * `paths.base` as `root-path.ts` reads it (`resolve("/")` where SvelteKit has it, else `base`),
 * written out here because this module is in every page's bundle, where bytes count. Read at
 * each call, as `root-path.ts` does: the namespace's bindings are live.
 */
import * as paths from "$app/paths"

export const actionsBase = (basePath = "/auth"): string =>
  ((paths as AppPaths).resolve?.("/", {}).slice(0, -1) ?? (paths as AppPaths).base) + basePath

interface AppPaths {
  resolve?: (path: "/", params: Record<string, string>) => string
  base?: string
}
