// Stands in for SvelteKit's `$app/forms`: `use:enhance` does nothing on the server.
export function enhance(_form: HTMLFormElement): { destroy(): void } {
  return { destroy() {} }
}
