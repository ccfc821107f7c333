// Stands in for SvelteKit's `$app/environment` in unit tests; tests flip `building`.
export let building = false
export const browser = false
export const dev = true
export const version = "test"
export function setBuilding(value: boolean): void {
  building = value
}
