// Stands in for SvelteKit's `$app/environment` in unit tests; tests flip `building` and `dev`.
export let building = false
export const browser = false
export let dev = true
export const version = "test"
export function setBuilding(value: boolean): void {
  building = value
}
export function setDev(value: boolean): void {
  dev = value
}
