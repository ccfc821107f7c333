/**
 * `getAccessToken`: the access token of a provider the signed-in user signed in with, refreshed
 * when due (a provider with `refresh` on) — for calling the provider's API on the user's behalf.
 */
import { resolveConfig } from "../config/resolve.js"
import { CookieJar } from "../cookies/jar.js"
import { resolveOrigin } from "../request/host.js"
import type { AuthConfig, Cookie } from "../types.js"
import { callAdapter, requireMethods } from "./adapter-call.js"
import { readDatabaseSession } from "./database-strategy.js"
import { readJWT } from "./read.js"
import { refreshingProvider } from "./refresh-config.js"

const usable = (token: unknown, expiresAt: unknown): token is string =>
  typeof token === "string" &&
  token !== "" &&
  !(typeof expiresAt === "number" && expiresAt <= Math.floor(Date.now() / 1000))

/**
 * The request's user's access token at `provider`, or `null`: not signed in, not with that
 * provider, or the token expired and could not be refreshed.
 *
 * With JWT sessions the token is the one the session keeps, which it does for providers with
 * `refresh` on; with database sessions it is the account's (the adapter needs
 * `listAccountsByUserId`). Set `cookies` on the response: a refresh re-issues the session cookie.
 *
 * @example
 * ```ts
 * const { accessToken, cookies } = await getAccessToken(request, config, "github")
 * const repos = await fetch("https://api.github.com/user/repos", {
 *   headers: { Authorization: `Bearer ${accessToken}` },
 * })
 * ```
 */
export async function getAccessToken(
  request: Request,
  config: AuthConfig,
  provider: string,
): Promise<{ accessToken: string | null; cookies: Cookie[] }> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  const cookies = new CookieJar(request.headers.get("cookie") ?? "")
  const site = resolveOrigin(new URL(request.url), resolved)
  const ctx = {
    config: resolved,
    cookies,
    cookieOptions: resolved.cookies(resolved.useSecureCookies ?? site.secure),
    logger: resolved.logger,
  }
  let accessToken: string | null = null
  if (resolved.session.strategy === "database") {
    const found = await readDatabaseSession(ctx)
    if (found) {
      let accounts
      if (refreshingProvider(resolved, provider)) {
        const { refreshAccounts } = await import("./refresh.js")
        accounts = (await refreshAccounts(ctx, found.user.id)).accounts
      } else {
        const adapter = requireMethods(
          resolved.adapter!,
          ["listAccountsByUserId"],
          "getAccessToken",
        )
        accounts = await callAdapter("listAccountsByUserId", () =>
          adapter.listAccountsByUserId(found.user.id),
        )
      }
      const account = accounts.find((candidate) => candidate.provider === provider)
      if (account && usable(account.access_token, account.expires_at)) {
        accessToken = account.access_token
      }
    }
  } else {
    let read
    try {
      read = await readJWT(ctx)
    } catch (error) {
      // The app's jwt callback threw: logged, and no token, as a session read gives no session.
      resolved.logger.error(error instanceof Error ? error : new Error(String(error)))
    }
    const held = read?.token.oauth
    if (held?.provider === provider && usable(held.access_token, held.expires_at)) {
      accessToken = held.access_token
    }
  }
  return { accessToken, cookies: cookies.toArray() }
}
