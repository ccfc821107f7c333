/**
 * `getAccessToken(event, provider)`: the signed-in user's access token at a provider, refreshed
 * when due (a provider with `refresh` on), for calling its API from a load function, an action
 * or an endpoint.
 */
import { getAccessToken as accessTokenOf } from "@latch/core"
import type { RequestEvent } from "@sveltejs/kit"
import { applyCookies } from "./cookies.js"
import { configOf } from "./request-config.js"

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
  const config = configOf(event, "getAccessToken")
  const { accessToken, cookies } = await accessTokenOf(event.request, config, provider)
  applyCookies(event.cookies, cookies)
  return accessToken
}
