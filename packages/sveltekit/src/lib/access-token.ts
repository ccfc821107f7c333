/**
 * `getAccessToken(event, provider)`: the signed-in user's access token at a provider, refreshed
 * when due (a provider with `refresh` on), for calling its API from a load function, an action
 * or an endpoint.
 */
import { getAccessToken as accessTokenOf } from "@latch/core"
import type { AuthConfig } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"
import { applyCookies } from "./cookies.js"

/**
 * Where the handle leaves the request's configuration: a symbol-keyed property of `locals`
 * (shared by every event of the request, invisible to the app's own keys and to JSON). A
 * property rather than a WeakMap entry: it is set on every page request, and costs nothing more
 * than the object it lives on.
 */
const CONFIG = Symbol.for("latch.sveltekit.config")

type WithConfig = { [CONFIG]?: AuthConfig }

/** Called by the handle: this request's configuration, for `getAccessToken`. */
export function rememberConfig(event: Pick<RequestEvent, "locals">, config: AuthConfig): void {
  ;(event.locals as WithConfig)[CONFIG] = config
}

/**
 * The access token of the signed-in user at `provider`, or `null` (not signed in, not with that
 * provider, or expired and not refreshable). A refresh re-issues the session cookie on the
 * response.
 *
 * With JWT sessions the token is kept in the session for providers with `refresh` on; with
 * database sessions it is read from the user's account.
 *
 * @example
 * ```ts
 * // src/routes/repos/+page.server.ts
 * import { getAccessToken } from "@latch/sveltekit"
 *
 * export const load = async (event) => {
 *   const token = await getAccessToken(event, "github")
 *   if (!token) return { repos: [] }
 *   const response = await event.fetch("https://api.github.com/user/repos", {
 *     headers: { Authorization: `Bearer ${token}` },
 *   })
 *   return { repos: await response.json() }
 * }
 * ```
 */
export async function getAccessToken(
  event: Pick<RequestEvent, "locals" | "request" | "cookies">,
  provider: string,
): Promise<string | null> {
  const config = (event.locals as WithConfig)[CONFIG]
  if (!config) {
    throw new Error(
      "getAccessToken(event) needs Latch's handle: export it from src/hooks.server.ts",
    )
  }
  const { accessToken, cookies } = await accessTokenOf(event.request, config, provider)
  applyCookies(event.cookies, cookies)
  return accessToken
}
