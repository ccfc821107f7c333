// Stands in for SvelteKit's `$app/paths`; tests set `base` to check `paths.base` handling, and a
// relative prefix to answer as `resolve` does while a request renders with `paths.relative`.
export let base = ""
export const assets = ""
let relativePrefix: string | undefined
/** `paths.base` + the path; with a relative prefix set, that prefix + the path. */
export function resolve(path: string, _params?: Record<string, string>): string {
  return (relativePrefix ?? base) + path
}
export function setBase(value: string): void {
  base = value
}
export function setRelativePrefix(value: string | undefined): void {
  relativePrefix = value
}
