/** Where the actions live for the browser helpers: `paths.base` + the server's `basePath`. */
import { resolve } from "$app/paths"

// `resolve("/")` is `paths.base` + "/" in the browser (SvelteKit 3 no longer exports `base`).
export const actionsBase = (basePath?: string): string =>
  `${resolve("/", {}).slice(0, -1)}${basePath ?? "/auth"}`
