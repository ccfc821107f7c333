/**
 * SvelteKit's `paths.base` ("" or e.g. "/app") as an absolute path, with SvelteKit 2 and 3.
 * `rootPath()` is `base + "/"`, except on the server during a request with `paths.relative` (the
 * default), where it is relative to the URL the browser is at ("./", "../"). Then the answer read
 * when this module was first evaluated serves: on a server that is at start-up, since SvelteKit
 * loads the hooks before any request. Should that have been during a request too, the relative
 * answer is resolved against the request's URL.
 */
import { rootPath } from "./root-path.js"

const atLoad = rootPath()

/** `paths.base` without a trailing "/"; `url` is the request's, for the last case above. */
export function appBase(url?: URL): string {
  const now = rootPath()
  const root = now.startsWith("/")
    ? now
    : atLoad.startsWith("/") || !url
      ? atLoad
      : new URL(now, url).pathname
  return root.replace(/\/+$/, "")
}
