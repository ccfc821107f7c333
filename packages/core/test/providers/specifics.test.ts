/**
 * What is particular to single providers: Microsoft Entra ID's audiences, Twitch's token response
 * rewrite, Discord's avatars, Reddit's User-Agent and escaped URLs, Bitbucket's emails, and the
 * issuer and check settings of the OpenID Connect providers.
 */
import { describe, expect, it, vi } from "vitest"

import { customFetch } from "../../src/markers.js"
import type {
  OAuthProviderConfig,
  ProviderFetch,
  UserinfoContext,
  UserinfoEndpoint,
} from "../../src/providers/index.js"
import type { TokenSet } from "../../src/types.js"
import Apple from "../../src/providers/apple.js"
import Authentik from "../../src/providers/authentik.js"
import Bitbucket, { type BitbucketProfile } from "../../src/providers/bitbucket.js"
import Discord, { discordAvatarUrl } from "../../src/providers/discord.js"
import GitLab from "../../src/providers/gitlab.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Reddit from "../../src/providers/reddit.js"
import Twitch from "../../src/providers/twitch.js"
import Zitadel from "../../src/providers/zitadel.js"

const TOKENS = { access_token: "at", token_type: "bearer" } as unknown as TokenSet

/** Runs a provider's custom userinfo request as the flow does. */
async function runUserinfo(
  provider: OAuthProviderConfig<any>,
  fetch: ProviderFetch,
  tokens: TokenSet = TOKENS,
) {
  const endpoint = provider.userinfo as UserinfoEndpoint
  if (typeof endpoint !== "object" || !("request" in endpoint)) throw new Error("no request")
  const context: UserinfoContext = { tokens, provider, fetch }
  return (await endpoint.request!(context)) as any
}

/** A `fetch` answering by URL, recording the requests. */
function routes(table: Record<string, () => Response>) {
  const calls: { url: string; headers: Headers }[] = []
  const fetch: ProviderFetch = async (url, init) => {
    calls.push({ url, headers: new Headers(init.headers) })
    const route = table[url]
    return route ? route() : new Response("not found", { status: 404 })
  }
  return { fetch, calls }
}

describe("Microsoft Entra ID", () => {
  const GUID = "72f988bf-86f1-41af-91ab-2d7cd011db47"

  it("defaults to the common endpoints as OAuth 2.0 with Graph's /me", () => {
    const provider = MicrosoftEntraID()
    expect(provider.type).toBe("oauth")
    expect(provider.issuer).toBeUndefined()
    expect(provider.authorization).toEqual({
      url: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
      params: { scope: "openid User.Read" },
    })
    expect(provider.token).toBe("https://login.microsoftonline.com/common/oauth2/v2.0/token")
    expect(provider.userinfo).toMatchObject({ url: "https://graph.microsoft.com/v1.0/me" })
    expect(provider.client?.token_endpoint_auth_method).toBe("client_secret_post")
  })

  it("uses the organizations endpoints the same way", () => {
    const provider = MicrosoftEntraID({ tenantId: "organizations" })
    expect(provider.type).toBe("oauth")
    expect(provider.token).toBe("https://login.microsoftonline.com/organizations/oauth2/v2.0/token")
  })

  it("is OpenID Connect with the tenant's issuer for one tenant", () => {
    const provider = MicrosoftEntraID({ tenantId: GUID })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(`https://login.microsoftonline.com/${GUID}/v2.0`)
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email" } })
    expect(provider.token).toBeUndefined()
    expect(provider.userinfo).toBeUndefined()
  })

  it("is OpenID Connect with a given issuer, whatever the tenant", () => {
    const issuer = `https://login.microsoftonline.com/${GUID}/v2.0`
    const provider = MicrosoftEntraID({ issuer })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(issuer)
  })

  it("signs personal accounts in on the consumers endpoints, with their tenant's issuer", () => {
    const provider = MicrosoftEntraID({ tenantId: "consumers" })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(
      "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
    )
    expect(provider.authorization).toEqual({
      url: "https://login.microsoftonline.com/consumers/oauth2/v2.0/authorize",
      params: { scope: "openid profile email" },
    })
    expect(provider.token).toBe("https://login.microsoftonline.com/consumers/oauth2/v2.0/token")
  })

  it("does not pass tenantId or profilePhotoSize on to the configuration", () => {
    const provider: object = MicrosoftEntraID({ tenantId: GUID, profilePhotoSize: 48 })
    expect("tenantId" in provider).toBe(false)
    expect("profilePhotoSize" in provider).toBe(false)
  })

  it("adds the photo to Graph's user as a data: URL", async () => {
    const provider = MicrosoftEntraID({ profilePhotoSize: 64 })
    const { fetch, calls } = routes({
      "https://graph.microsoft.com/v1.0/me": () =>
        Response.json({
          id: "u1",
          displayName: "Adele Vance",
          mail: null,
          userPrincipalName: "a@b.c",
        }),
      "https://graph.microsoft.com/v1.0/me/photos/64x64/$value": () =>
        new Response(new Uint8Array([0xff, 0xd8, 0xff]), {
          headers: { "content-type": "image/jpeg" },
        }),
    })
    const profile = await runUserinfo(provider, fetch)
    expect(calls.map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer at",
      "Bearer at",
    ])
    const user = await provider.profile!(profile, TOKENS)
    expect(user).toEqual({
      id: "u1",
      name: "Adele Vance",
      email: "a@b.c",
      image: "data:image/jpeg;base64,/9j/",
    })
  })

  it("signs in without a photo when the user has none", async () => {
    const provider = MicrosoftEntraID({ profilePhotoSize: 48 })
    const { fetch } = routes({
      "https://graph.microsoft.com/v1.0/me": () => Response.json({ id: "u1", displayName: "A" }),
    })
    const user = await provider.profile!(await runUserinfo(provider, fetch), TOKENS)
    expect(user.image).toBeNull()
  })

  it("fails when Graph refuses /me", async () => {
    const { fetch } = routes({})
    await expect(runUserinfo(MicrosoftEntraID(), fetch)).rejects.toThrow(/404/)
  })

  it("for one tenant with a photo, reads the ID token's claims and the photo", async () => {
    const provider = MicrosoftEntraID({ tenantId: GUID, profilePhotoSize: 48 })
    expect(provider.type).toBe("oidc")
    expect((provider as { idToken?: boolean }).idToken).toBe(false)
    expect(provider.authorization).toEqual({
      params: { scope: "openid profile email User.Read" },
    })
    const payload = { sub: "s", oid: "o-1", name: "Abe Lincoln", email: "abe@contoso.com" }
    const part = btoa(JSON.stringify(payload)).replace(/=+$/, "").replace(/\+/g, "-")
    const tokens = { ...TOKENS, id_token: `e30.${part}.sig` } as unknown as TokenSet
    const { fetch } = routes({
      "https://graph.microsoft.com/v1.0/me/photos/48x48/$value": () =>
        new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } }),
    })
    const profile = await runUserinfo(provider, fetch, tokens)
    expect(profile.oid).toBe("o-1")
    expect(await provider.profile!(profile, tokens)).toEqual({
      id: "s",
      name: "Abe Lincoln",
      email: "abe@contoso.com",
      image: "data:image/png;base64,AQID",
    })
  })

  it("identifies users by sub (the id @auth/core stores), then by object ID", async () => {
    const provider = MicrosoftEntraID({ tenantId: GUID })
    expect((await provider.profile!({ sub: "pairwise" }, TOKENS)).id).toBe("pairwise")
    expect((await provider.profile!({ sub: "pairwise", oid: "object" }, TOKENS)).id).toBe(
      "pairwise",
    )
    expect((await provider.profile!({ oid: "object", id: "graph" }, TOKENS)).id).toBe("object")
    expect((await provider.profile!({ id: "graph" }, TOKENS)).id).toBe("graph")
  })

  it("on the common endpoints, adds the ID token's sub, oid and tid to Graph's user", async () => {
    const provider = MicrosoftEntraID()
    const payload = { sub: "pairwise-sub", oid: "u1", tid: GUID }
    const part = btoa(JSON.stringify(payload)).replace(/=+$/, "").replace(/\+/g, "-")
    const tokens = { ...TOKENS, id_token: `e30.${part}.sig` } as unknown as TokenSet
    const { fetch } = routes({
      "https://graph.microsoft.com/v1.0/me": () => Response.json({ id: "u1", displayName: "A" }),
    })
    const profile = await runUserinfo(provider, fetch, tokens)
    expect(profile).toMatchObject({ id: "u1", sub: "pairwise-sub", oid: "u1", tid: GUID })
    expect((await provider.profile!(profile, tokens)).id).toBe("pairwise-sub")
  })
})

describe("Twitch", () => {
  const tokenBody = {
    access_token: "at",
    expires_in: 14124,
    id_token: "x.y.z",
    refresh_token: "rt",
    scope: ["openid", "user:read:email"],
    token_type: "bearer",
  }

  it("rewrites an array scope in a JSON answer to a POST into a string", async () => {
    const inner = vi.fn<ProviderFetch>(async () => Response.json(tokenBody))
    const provider = Twitch({ [customFetch]: inner })
    const fetch = provider[customFetch]!
    const response = await fetch("https://id.twitch.tv/oauth2/token", { method: "POST" })
    expect(inner).toHaveBeenCalledOnce()
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/json/)
    expect(await response.json()).toEqual({ ...tokenBody, scope: "openid user:read:email" })
  })

  it("leaves other answers alone", async () => {
    const original = Response.json(tokenBody)
    const provider = Twitch({ [customFetch]: async () => original })
    const fetch = provider[customFetch]!
    expect(await fetch("https://id.twitch.tv/oauth2/userinfo", { method: "GET" })).toBe(original)

    const text = new Response("scope=openid", { headers: { "content-type": "text/plain" } })
    const asText = Twitch({ [customFetch]: async () => text })[customFetch]!
    expect(await asText("https://id.twitch.tv/oauth2/token", { method: "POST" })).toBe(text)

    const error = Response.json(
      { status: 400, message: "Invalid authorization code" },
      { status: 400 },
    )
    const failing = Twitch({ [customFetch]: async () => error })[customFetch]!
    expect(await failing("https://id.twitch.tv/oauth2/token", { method: "POST" })).toBe(error)
  })

  it("keeps the status of a rewritten answer", async () => {
    const inner: ProviderFetch = async () => Response.json({ scope: ["a"] }, { status: 400 })
    const fetch = Twitch({ [customFetch]: inner })[customFetch]!
    const response = await fetch("https://id.twitch.tv/oauth2/token", { method: "POST" })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ scope: "a" })
  })

  it("wraps the global fetch when none is given, calling it lazily", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ scope: ["x"] }))
    try {
      const fetch = Twitch()[customFetch]!
      const response = await fetch("https://id.twitch.tv/oauth2/token", { method: "POST" })
      expect(await response.json()).toEqual({ scope: "x" })
      expect(spy).toHaveBeenCalledOnce()
    } finally {
      spy.mockRestore()
    }
  })

  it("authenticates with client_secret_post and asks for the claims in the ID token", () => {
    const provider = Twitch()
    expect(provider.client?.token_endpoint_auth_method).toBe("client_secret_post")
    expect(provider.issuer).toBe("https://id.twitch.tv/oauth2")
  })
})

describe("Discord avatars", () => {
  it("uses the animated format for a_ hashes", () => {
    expect(
      discordAvatarUrl({
        id: "1",
        avatar: "a_1269e74af4df7417b13759eae50c83dc",
        discriminator: "0",
      }),
    ).toBe("https://cdn.discordapp.com/avatars/1/a_1269e74af4df7417b13759eae50c83dc.gif")
  })

  it("derives the default avatar from the id for unique usernames", () => {
    // (80351110224678912 >> 22) % 6 = 19157197529 % 6 = 5
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "0" })).toBe(
      "https://cdn.discordapp.com/embed/avatars/5.png",
    )
  })

  it("derives the default avatar from a legacy discriminator", () => {
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "1337" })).toBe(
      "https://cdn.discordapp.com/embed/avatars/2.png",
    )
  })

  it("falls back to the username when there is no display name", async () => {
    const user = await Discord().profile!(
      { id: "1", username: "nelly", discriminator: "0", global_name: null, avatar: null },
      TOKENS,
    )
    expect(user.name).toBe("nelly")
    expect(user.email).toBeNull()
  })
})

describe("Reddit", () => {
  it("reads /api/v1/me with a descriptive User-Agent", async () => {
    const provider = { ...Reddit(), clientId: "abc123" }
    const { fetch, calls } = routes({
      "https://oauth.reddit.com/api/v1/me": () => Response.json({ id: "1w72", name: "spez" }),
    })
    expect(await runUserinfo(provider, fetch)).toEqual({ id: "1w72", name: "spez" })
    expect(calls[0]?.headers.get("user-agent")).toBe("web:abc123:latch")
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer at")
  })

  it("asks for a temporary grant of the identity scope", () => {
    expect(Reddit().authorization).toEqual({
      url: "https://www.reddit.com/api/v1/authorize",
      params: { scope: "identity", duration: "temporary" },
    })
  })

  it("prefers the Snoovatar, unescaped", async () => {
    const user = await Reddit().profile!(
      {
        id: "1",
        name: "spez",
        icon_img: "https://a.example/icon.png",
        snoovatar_img: "https://i.redd.it/snoo.png?a=1&amp;b=2",
      },
      TOKENS,
    )
    expect(user.image).toBe("https://i.redd.it/snoo.png?a=1&b=2")
  })
})

describe("Bitbucket", () => {
  const account = {
    uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
    account_id: "557058:c0b72ad0",
    display_name: "Tutorials Account",
    type: "user",
    created_on: "2011-12-20T16:34:07.132459+00:00",
    links: { avatar: { href: "https://secure.gravatar.com/avatar/t.png" } },
  }

  it("adds the primary confirmed email address", async () => {
    const { fetch, calls } = routes({
      "https://api.bitbucket.org/2.0/user": () => Response.json(account),
      "https://api.bitbucket.org/2.0/user/emails": () =>
        Response.json({
          pagelen: 10,
          page: 1,
          size: 2,
          values: [
            { email: "old@example.com", is_primary: false, is_confirmed: true, type: "email" },
            { email: "tutorials@example.com", is_primary: true, is_confirmed: true, type: "email" },
          ],
        }),
    })
    const profile = await runUserinfo(Bitbucket(), fetch)
    expect(calls.map((call) => call.url)).toEqual([
      "https://api.bitbucket.org/2.0/user",
      "https://api.bitbucket.org/2.0/user/emails",
    ])
    expect(await Bitbucket().profile!(profile as BitbucketProfile, TOKENS)).toEqual({
      id: account.account_id,
      name: "Tutorials Account",
      email: "tutorials@example.com",
      image: "https://secure.gravatar.com/avatar/t.png",
    })
  })

  it("leaves the email null without the email permission or a confirmed primary", async () => {
    const refused = routes({ "https://api.bitbucket.org/2.0/user": () => Response.json(account) })
    expect((await runUserinfo(Bitbucket(), refused.fetch)).email).toBeNull()
    const unconfirmed = routes({
      "https://api.bitbucket.org/2.0/user": () => Response.json(account),
      "https://api.bitbucket.org/2.0/user/emails": () =>
        Response.json({
          values: [{ email: "a@b.c", is_primary: true, is_confirmed: false, type: "email" }],
        }),
    })
    expect((await runUserinfo(Bitbucket(), unconfirmed.fetch)).email).toBeNull()
  })
})

describe("OpenID Connect settings", () => {
  it("adds the trailing slash authentik's issuers have", () => {
    expect(Authentik({ issuer: "https://auth.example.com/application/o/app" }).issuer).toBe(
      "https://auth.example.com/application/o/app/",
    )
    expect(Authentik({ issuer: "https://auth.example.com/application/o/app/" }).issuer).toBe(
      "https://auth.example.com/application/o/app/",
    )
    expect(Authentik().issuer).toBeUndefined()
  })

  it("reads ZITADEL's profile from the userinfo endpoint", () => {
    expect(Zitadel().idToken).toBe(false)
  })

  it("checks only state with LinkedIn, which has no nonce and no PKCE for web apps", () => {
    const provider = LinkedIn()
    expect(provider.checks).toEqual(["state"])
    expect(provider.issuer).toBe("https://www.linkedin.com/oauth")
    expect(provider.client?.token_endpoint_auth_method).toBe("client_secret_post")
  })

  it("keeps Apple's form_post when other parameters are added", () => {
    const provider = Apple({ authorization: { params: { prompt: "consent" } } })
    expect(provider.authorization).toEqual({
      params: { scope: "openid name email", response_mode: "form_post", prompt: "consent" },
    })
    expect(provider.client?.token_endpoint_auth_method).toBe("client_secret_post")
  })

  it("lets a parameter be dropped with undefined", () => {
    const provider = Apple({ authorization: { params: { response_mode: undefined } } })
    expect(provider.authorization).toEqual({
      params: { scope: "openid name email", response_mode: undefined },
    })
  })
})

describe("self-managed GitLab", () => {
  it("uses the instance's endpoints", () => {
    const provider = GitLab({ baseUrl: "https://gitlab.example.com/" })
    expect(provider.authorization).toEqual({
      url: "https://gitlab.example.com/oauth/authorize",
      params: { scope: "read_user" },
    })
    expect(provider.token).toBe("https://gitlab.example.com/oauth/token")
    expect(provider.userinfo).toBe("https://gitlab.example.com/api/v4/user")
    expect("baseUrl" in provider).toBe(false)
  })
})
