/** Cookies from `@latch/core` → SvelteKit's `event.cookies`, as data: no `Set-Cookie` parsing. */
import type { Cookie } from "@latch/core/types"
import type { Cookies } from "@sveltejs/kit"

export function applyCookies(target: Cookies, cookies: readonly Cookie[] | undefined): void {
  if (!cookies) return
  for (const { name, value, options } of cookies) {
    target.set(name, value, { ...options, path: options.path ?? "/" })
  }
}
