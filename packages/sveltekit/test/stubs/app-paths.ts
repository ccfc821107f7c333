// Stands in for SvelteKit's `$app/paths`; tests set `base` to check `paths.base` handling.
export let base = ""
export const assets = ""
export function setBase(value: string): void {
  base = value
}
