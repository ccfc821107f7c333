/**
 * OAuth: the start of a GitHub sign-in (the redirect to github.com with PKCE and state), and
 * access-token refresh against a real authorization server (served by the check on 127.0.0.1):
 * sign in, let the token come due, read the session from several requests at once — one refresh
 * grant — and call the server's API with the new token.
 */
import { getAccessToken } from "@latch/core"
import GitHub from "@latch/core/providers/github"
import type { OAuthConfig } from "@latch/core/providers"
import { Browser, check, expectRedirect, locationOf, ORIGIN } from "../browser.js"
import { baseConfig, logged } from "./config.js"

export async function githubStart(): Promise<string> {
  const browser = new Browser(
    baseConfig({ providers: [GitHub({ clientId: "gh-id", clientSecret: "gh-secret" })] }),
  )
  const to = locationOf(await browser.post("/auth/signin/github", { callbackUrl: "/repos" }))
  check(to.origin === "https://github.com", `the sign-in went to ${to.origin}, not github.com`)
  const params = to.searchParams
  check(params.get("client_id") === "gh-id", "no client_id")
  check(params.get("code_challenge_method") === "S256", "no PKCE S256 challenge")
  check((params.get("state") ?? "").length > 20, "no state")
  check(params.get("redirect_uri") === `${ORIGIN}/auth/callback/github`, "wrong redirect_uri")
  return `302 ${to.origin}${to.pathname}`
}

/** What the check's authorization server counts for a client. */
interface Grants {
  authorization_code: number
  refresh_token: number
}

function provider(server: string, client: string): OAuthConfig<Record<string, any>> {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth",
    clientId: client,
    clientSecret: "acme-secret",
    authorization: { url: `${server}/authorize`, params: { scope: "read" } },
    token: `${server}/token`,
    userinfo: `${server}/user`,
    profile: (profile) => ({ id: String(profile.id), name: profile.name, email: profile.email }),
    // The server's first tokens expire within this margin: the first read refreshes them.
    refresh: { margin: 120 },
  }
}

/**
 * `server`: the authorization server's origin; `offline`: the runtime may not reach it (Deno
 * without permissions), and the sign-in must then end on an error page with a code.
 */
export async function refresh(server: string, client: string, offline: boolean): Promise<string> {
  const config = baseConfig({ providers: [provider(server, client)] })
  const browser = new Browser(config)
  const authorize = locationOf(await browser.post("/auth/signin/acme", { callbackUrl: "/home" }))
  check(authorize.href.startsWith(`${server}/authorize`), `went to ${authorize.href}`)
  if (offline) {
    const state = authorize.searchParams.get("state") ?? ""
    const callback = await browser.fetch(`/auth/callback/acme?code=unreachable&state=${state}`)
    const to = locationOf(callback)
    const error = to.searchParams.get("error")
    check(error, `the unreachable token endpoint ended at ${to.href}, without an error`)
    return `no network: ${to.pathname}?error=${error}`
  }
  const consent = await fetch(authorize, { redirect: "manual" })
  const back = new URL(consent.headers.get("location") ?? "")
  expectRedirect(await browser.fetch(back.pathname + back.search), "/home")

  const reads = await Promise.all(
    Array.from({ length: 5 }, () => browser.fetch("/auth/session").then((r) => r.json())),
  )
  for (const read of reads) {
    check(
      (read as any)?.user?.email === "grace@example.com",
      `a read answered ${JSON.stringify(read)}`,
    )
    check(!(read as any).error, `the refresh failed: ${(read as any).error} ${logged.at(-1) ?? ""}`)
  }
  const grants = (await (await fetch(`${server}/grants?client=${client}`)).json()) as Grants
  check(grants.refresh_token === 1, `${grants.refresh_token} refresh grants, not 1`)
  const { accessToken } = await getAccessToken(
    new Request(`${ORIGIN}/api`, {
      headers: { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
    }),
    config,
    "acme",
  )
  const api = await fetch(`${server}/user`, { headers: { authorization: `Bearer ${accessToken}` } })
  check(api.ok, `the refreshed access token was refused (${api.status})`)
  return "5 reads, 1 refresh grant, new token accepted"
}
