/**
 * GitHub's profile request: `GET /user`, and `GET /user/emails` for a private address, through
 * the `fetch` the flow hands it, speaking the GitHub REST API's shapes.
 */
import { describe, expect, it } from "vitest"

import type { OAuthConfig, ProviderFetch, UserinfoContext } from "../../src/providers/index.js"
import GitHub, { type GitHubEmail, type GitHubProfile } from "../../src/providers/github.js"
import type { TokenSet } from "../../src/types.js"

const USER: GitHubProfile = {
  login: "octocat",
  id: 583231,
  node_id: "MDQ6VXNlcjU4MzIzMQ==",
  avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
  gravatar_id: "",
  url: "https://api.github.com/users/octocat",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  name: "The Octocat",
  company: "@github",
  blog: "https://github.blog",
  location: "San Francisco",
  email: null,
  hireable: null,
  bio: null,
  public_repos: 8,
  public_gists: 8,
  followers: 9999,
  following: 9,
  created_at: "2011-01-25T18:44:36Z",
  updated_at: "2024-01-22T12:00:00Z",
}

const EMAILS: GitHubEmail[] = [
  { email: "octocat@users.noreply.github.com", primary: false, verified: true, visibility: null },
  { email: "old@example.com", primary: false, verified: false, visibility: null },
  { email: "octocat@github.com", primary: true, verified: true, visibility: "private" },
]

interface Call {
  url: string
  headers: Headers
}

/** A fake api.github.com: `/user` and `/user/emails`, recording each call. */
function fakeApi(
  user: GitHubProfile,
  emails: GitHubEmail[] | { status: number } = EMAILS,
  base = "https://api.github.com",
) {
  const calls: Call[] = []
  const fetch: ProviderFetch = async (url, init) => {
    const headers = new Headers(init.headers)
    calls.push({ url, headers })
    if (headers.get("authorization") !== "Bearer gho_token") {
      return Response.json({ message: "Requires authentication" }, { status: 401 })
    }
    if (url === `${base}/user`) return Response.json(user)
    if (url === `${base}/user/emails`) {
      return Array.isArray(emails)
        ? Response.json(emails)
        : Response.json({ message: "Not Found" }, emails)
    }
    return Response.json({ message: "Not Found" }, { status: 404 })
  }
  return { fetch, calls }
}

const TOKENS = {
  access_token: "gho_token",
  token_type: "bearer",
  scope: "read:user,user:email",
} as unknown as TokenSet

/** Runs the provider's userinfo request as the flow does. */
async function userinfo(provider: OAuthConfig<GitHubProfile>, fetch: ProviderFetch) {
  const endpoint = provider.userinfo
  if (typeof endpoint !== "object" || !("request" in endpoint)) {
    throw new Error("GitHub has no custom userinfo request")
  }
  const context: UserinfoContext = { tokens: TOKENS, provider, fetch }
  return (await endpoint.request!(context)) as GitHubProfile
}

describe("GitHub userinfo request", () => {
  it("reads /user/emails when the public email is null, and takes the primary verified one", async () => {
    const api = fakeApi(USER)
    const profile = await userinfo(GitHub(), api.fetch)
    expect(api.calls.map((call) => call.url)).toEqual([
      "https://api.github.com/user",
      "https://api.github.com/user/emails",
    ])
    expect(profile.email).toBe("octocat@github.com")
    expect(profile.login).toBe("octocat")
    const user = await GitHub().profile!(profile, TOKENS)
    expect(user).toEqual({
      id: "583231",
      name: "The Octocat",
      email: "octocat@github.com",
      image: "https://avatars.githubusercontent.com/u/583231?v=4",
    })
  })

  it("makes one call when the public email is present", async () => {
    const api = fakeApi({ ...USER, email: "public@example.com" })
    const profile = await userinfo(GitHub(), api.fetch)
    expect(api.calls.map((call) => call.url)).toEqual(["https://api.github.com/user"])
    expect(profile.email).toBe("public@example.com")
  })

  it("sends the GitHub API headers with the access token", async () => {
    const api = fakeApi(USER)
    await userinfo(GitHub(), api.fetch)
    for (const { headers } of api.calls) {
      expect(headers.get("authorization")).toBe("Bearer gho_token")
      expect(headers.get("accept")).toBe("application/vnd.github+json")
      expect(headers.get("user-agent")).toBe("latch")
    }
  })

  it("leaves the email null when no address is both primary and verified", async () => {
    const api = fakeApi(USER, [
      { email: "unverified@example.com", primary: true, verified: false, visibility: "private" },
      { email: "other@example.com", primary: false, verified: true, visibility: null },
    ])
    const profile = await userinfo(GitHub(), api.fetch)
    expect(profile.email).toBeNull()
  })

  it("leaves the email null when /user/emails is refused (no user:email scope)", async () => {
    const api = fakeApi(USER, { status: 404 })
    const profile = await userinfo(GitHub(), api.fetch)
    expect(profile.email).toBeNull()
    expect(profile.login).toBe("octocat")
  })

  it("fails when /user fails", async () => {
    const api = fakeApi(USER)
    const failing: ProviderFetch = (url, init) =>
      api.fetch(url, { ...init, headers: { authorization: "Bearer wrong" } })
    await expect(userinfo(GitHub(), failing)).rejects.toThrow(/401/)
  })

  it("uses the name, or the login when the name is empty", async () => {
    const user = await GitHub().profile!({ ...USER, name: null, email: "a@b.c" }, TOKENS)
    expect(user.name).toBe("octocat")
  })

  it("talks to a GitHub Enterprise Server's /api/v3", async () => {
    const provider = GitHub({ baseUrl: "https://github.example.com/" })
    expect(provider.authorization).toEqual({
      url: "https://github.example.com/login/oauth/authorize",
      params: { scope: "read:user user:email" },
    })
    expect(provider.token).toBe("https://github.example.com/login/oauth/access_token")
    const api = fakeApi(USER, EMAILS, "https://github.example.com/api/v3")
    const profile = await userinfo(provider, api.fetch)
    expect(api.calls.map((call) => call.url)).toEqual([
      "https://github.example.com/api/v3/user",
      "https://github.example.com/api/v3/user/emails",
    ])
    expect(profile.email).toBe("octocat@github.com")
  })

  it("keeps the userinfo URL for the timeout and the configuration check", () => {
    const provider = GitHub()
    expect(provider.userinfo).toMatchObject({ url: "https://api.github.com/user" })
  })
})
