/** Where the actions live for the browser helpers: `paths.base` + the server's `basePath`. */
import { rootPath } from "./root-path.js"

// `rootPath()` is `paths.base` + "/" in the browser.
export const actionsBase = (basePath?: string): string =>
  `${rootPath().slice(0, -1)}${basePath ?? "/auth"}`
