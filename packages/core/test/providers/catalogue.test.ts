/**
 * Every built-in OAuth / OpenID Connect provider, table-driven: its id and type, https endpoints,
 * user options over the defaults, the mapping of the provider's documented profile to a user, its
 * style, and that a configuration with it and its AUTH_<ID>_* variables resolves.
 */
import { describe, expect, it } from "vitest"

import { resolveConfig } from "../../src/config/resolve.js"
import type { OAuthEndpoint, OAuthProviderConfig } from "../../src/providers/index.js"
import type { AuthConfig, TokenSet } from "../../src/types.js"
import Apple from "../../src/providers/apple.js"
import Atlassian from "../../src/providers/atlassian.js"
import Auth0 from "../../src/providers/auth0.js"
import Authentik from "../../src/providers/authentik.js"
import Bitbucket from "../../src/providers/bitbucket.js"
import Discord from "../../src/providers/discord.js"
import Facebook from "../../src/providers/facebook.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import Keycloak from "../../src/providers/keycloak.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Okta from "../../src/providers/okta.js"
import Reddit from "../../src/providers/reddit.js"
import Slack from "../../src/providers/slack.js"
import Spotify from "../../src/providers/spotify.js"
import Twitch from "../../src/providers/twitch.js"
import Twitter from "../../src/providers/twitter.js"
import Zitadel from "../../src/providers/zitadel.js"
import Zoom from "../../src/providers/zoom.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const TOKENS = { access_token: "at", token_type: "bearer" } as unknown as TokenSet

interface Case {
  factory: (options?: any) => OAuthProviderConfig<any>
  id: string
  type: "oauth" | "oidc"
  /** Options every call needs: the issuer of providers that take it from the environment. */
  base?: Record<string, unknown>
  /** A sample of the profile shape the provider documents. */
  sample: Record<string, unknown>
  user: { id: string; name: string | null; email: string | null; image: string | null }
}

const cases: Case[] = [
  {
    factory: GitHub,
    id: "github",
    type: "oauth",
    sample: {
      login: "octocat",
      id: 1,
      node_id: "MDQ6VXNlcjE=",
      avatar_url: "https://github.com/images/error/octocat_happy.gif",
      name: "monalisa octocat",
      email: "octocat@github.com",
      public_repos: 2,
    },
    user: {
      id: "1",
      name: "monalisa octocat",
      email: "octocat@github.com",
      image: "https://github.com/images/error/octocat_happy.gif",
    },
  },
  {
    factory: Google,
    id: "google",
    type: "oidc",
    sample: {
      iss: "https://accounts.google.com",
      aud: "client",
      sub: "110169484474386276334",
      email: "jane@example.com",
      email_verified: true,
      name: "Jane Doe",
      picture: "https://lh3.googleusercontent.com/a/photo",
      given_name: "Jane",
      family_name: "Doe",
    },
    user: {
      id: "110169484474386276334",
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://lh3.googleusercontent.com/a/photo",
    },
  },
  {
    factory: GitLab,
    id: "gitlab",
    type: "oauth",
    sample: {
      id: 1,
      username: "john_smith",
      name: "John Smith",
      state: "active",
      avatar_url: "https://gitlab.example.com/uploads/user/avatar/1/index.jpg",
      web_url: "https://gitlab.example.com/john_smith",
      email: "john@example.com",
    },
    user: {
      id: "1",
      name: "John Smith",
      email: "john@example.com",
      image: "https://gitlab.example.com/uploads/user/avatar/1/index.jpg",
    },
  },
  {
    factory: Discord,
    id: "discord",
    type: "oauth",
    sample: {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      verified: true,
      email: "nelly@discord.com",
    },
    user: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    },
  },
  {
    factory: MicrosoftEntraID,
    id: "microsoft-entra-id",
    type: "oauth",
    sample: {
      "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
      id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
      displayName: "Adele Vance",
      givenName: "Adele",
      surname: "Vance",
      mail: "AdeleV@contoso.com",
      userPrincipalName: "AdeleV@contoso.com",
    },
    user: {
      id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
      name: "Adele Vance",
      email: "AdeleV@contoso.com",
      image: null,
    },
  },
  {
    factory: MicrosoftEntraID,
    id: "microsoft-entra-id",
    type: "oidc",
    base: { tenantId: "72f988bf-86f1-41af-91ab-2d7cd011db47" },
    sample: {
      iss: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      oid: "00000000-0000-0000-66f3-3332eca7ea81",
      tid: "72f988bf-86f1-41af-91ab-2d7cd011db47",
      name: "Abe Lincoln",
      preferred_username: "abe@contoso.com",
    },
    user: {
      // The subject, as @auth/core stores it (not the object id).
      id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      name: "Abe Lincoln",
      email: "abe@contoso.com",
      image: null,
    },
  },
  {
    factory: Apple,
    id: "apple",
    type: "oidc",
    sample: {
      iss: "https://appleid.apple.com",
      aud: "com.example.web",
      sub: "001234.5f9e2b7c8a1d4e6f.1234",
      email: "x7y8z9@privaterelay.appleid.com",
      email_verified: "true",
      is_private_email: "true",
      real_user_status: 2,
    },
    user: {
      id: "001234.5f9e2b7c8a1d4e6f.1234",
      name: null,
      email: "x7y8z9@privaterelay.appleid.com",
      image: null,
    },
  },
  {
    factory: Auth0,
    id: "auth0",
    type: "oidc",
    base: { issuer: "https://example.us.auth0.com" },
    sample: {
      sub: "auth0|64f1e2d3c4b5a69788776655",
      nickname: "jane",
      name: "Jane Doe",
      picture: "https://s.gravatar.com/avatar/abc.png",
      email: "jane@example.com",
      email_verified: true,
    },
    user: {
      id: "auth0|64f1e2d3c4b5a69788776655",
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://s.gravatar.com/avatar/abc.png",
    },
  },
  {
    factory: Okta,
    id: "okta",
    type: "oidc",
    base: { issuer: "https://example.okta.com" },
    sample: {
      sub: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      preferred_username: "john.doe@example.com",
      email: "john.doe@example.com",
      email_verified: true,
    },
    user: {
      id: "00uid4BxXw6I6TV4m0g3",
      name: "John Doe",
      email: "john.doe@example.com",
      image: null,
    },
  },
  {
    factory: Keycloak,
    id: "keycloak",
    type: "oidc",
    base: { issuer: "https://keycloak.example.com/realms/acme" },
    sample: {
      sub: "f1e2d3c4-b5a6-4978-8877-665544332211",
      preferred_username: "jdoe",
      email: "jdoe@example.com",
      email_verified: true,
    },
    user: {
      id: "f1e2d3c4-b5a6-4978-8877-665544332211",
      name: "jdoe",
      email: "jdoe@example.com",
      image: null,
    },
  },
  {
    factory: Facebook,
    id: "facebook",
    type: "oauth",
    sample: {
      id: "10158765432101234",
      name: "Jane Smith",
      email: "jsmith@example.com",
      picture: {
        data: {
          height: 200,
          width: 200,
          is_silhouette: false,
          url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1",
        },
      },
    },
    user: {
      id: "10158765432101234",
      name: "Jane Smith",
      email: "jsmith@example.com",
      image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1",
    },
  },
  {
    factory: Twitch,
    id: "twitch",
    type: "oidc",
    sample: {
      iss: "https://id.twitch.tv/oauth2",
      aud: "client",
      sub: "713936733",
      preferred_username: "twitchdev",
      email: "dev@twitch.tv",
      email_verified: true,
      picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev.png",
    },
    user: {
      id: "713936733",
      name: "twitchdev",
      email: "dev@twitch.tv",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev.png",
    },
  },
  {
    factory: Slack,
    id: "slack",
    type: "oidc",
    sample: {
      sub: "U0R7JM",
      "https://slack.com/user_id": "U0R7JM",
      "https://slack.com/team_id": "T0R7GR",
      email: "krane@slack-corp.com",
      email_verified: true,
      name: "krane",
      picture: "https://secure.gravatar.com/avatar/krane.png",
      given_name: "Bront",
      family_name: "Labradoodle",
    },
    user: {
      id: "U0R7JM",
      name: "krane",
      email: "krane@slack-corp.com",
      image: "https://secure.gravatar.com/avatar/krane.png",
    },
  },
  {
    factory: LinkedIn,
    id: "linkedin",
    type: "oidc",
    sample: {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture: "https://media.licdn.com/dms/image/C4E03AQ/profile.jpg",
      locale: "en-US",
      email: "doe@email.com",
      email_verified: true,
    },
    user: {
      id: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image: "https://media.licdn.com/dms/image/C4E03AQ/profile.jpg",
    },
  },
  {
    factory: Spotify,
    id: "spotify",
    type: "oauth",
    sample: {
      id: "wizzler",
      display_name: "JM Wizzler",
      email: "email@example.com",
      images: [{ url: "https://i.scdn.co/image/ab6775700000ee85", height: 300, width: 300 }],
      type: "user",
      uri: "spotify:user:wizzler",
    },
    user: {
      id: "wizzler",
      name: "JM Wizzler",
      email: "email@example.com",
      image: "https://i.scdn.co/image/ab6775700000ee85",
    },
  },
  {
    factory: Twitter,
    id: "twitter",
    type: "oauth",
    sample: {
      data: {
        id: "2244994945",
        name: "X Developers",
        username: "XDevelopers",
        profile_image_url: "https://pbs.twimg.com/profile_images/1/xdev_normal.jpg",
      },
    },
    user: {
      id: "2244994945",
      name: "X Developers",
      email: null,
      image: "https://pbs.twimg.com/profile_images/1/xdev_normal.jpg",
    },
  },
  {
    factory: Reddit,
    id: "reddit",
    type: "oauth",
    sample: {
      id: "1w72",
      name: "spez",
      icon_img:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_x.png?width=256&amp;height=256&amp;s=abc",
      snoovatar_img: "",
      has_verified_email: true,
    },
    user: {
      id: "1w72",
      name: "spez",
      email: null,
      image:
        "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_x.png?width=256&height=256&s=abc",
    },
  },
  {
    factory: Zoom,
    id: "zoom",
    type: "oauth",
    sample: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      display_name: "Jill Chill",
      email: "jchill@example.com",
      type: 1,
      pic_url: "https://example.com/photo.jpg",
    },
    user: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      name: "Jill Chill",
      email: "jchill@example.com",
      image: "https://example.com/photo.jpg",
    },
  },
  {
    factory: Atlassian,
    id: "atlassian",
    type: "oauth",
    sample: {
      account_type: "atlassian",
      account_id: "112233:aabbccdd-1122-3344-5566-778899aabbcc",
      email: "mia@example.com",
      name: "Mia Krystof",
      picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/mia.png",
      account_status: "active",
      nickname: "mkrystof",
    },
    user: {
      id: "112233:aabbccdd-1122-3344-5566-778899aabbcc",
      name: "Mia Krystof",
      email: "mia@example.com",
      image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/mia.png",
    },
  },
  {
    factory: Bitbucket,
    id: "bitbucket",
    type: "oauth",
    sample: {
      uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
      account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
      display_name: "Tutorials Account",
      nickname: "tutorials",
      type: "user",
      links: { avatar: { href: "https://secure.gravatar.com/avatar/tutorials.png" } },
      email: "tutorials@example.com",
    },
    user: {
      // The Atlassian account id, as @auth/core stores it (not the uuid).
      id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
      name: "Tutorials Account",
      email: "tutorials@example.com",
      image: "https://secure.gravatar.com/avatar/tutorials.png",
    },
  },
  {
    factory: Authentik,
    id: "authentik",
    type: "oidc",
    base: { issuer: "https://authentik.example.com/application/o/my-app/" },
    sample: {
      sub: "6ad5ba7e8a1b4c2d",
      name: "authentik Default Admin",
      preferred_username: "akadmin",
      email: "admin@example.com",
      email_verified: true,
      groups: ["authentik Admins"],
    },
    user: {
      id: "6ad5ba7e8a1b4c2d",
      name: "authentik Default Admin",
      email: "admin@example.com",
      image: null,
    },
  },
  {
    factory: Zitadel,
    id: "zitadel",
    type: "oidc",
    base: { issuer: "https://my-instance.zitadel.cloud" },
    sample: {
      sub: "2219634455658",
      name: "Road Runner",
      preferred_username: "road.runner@acme.zitadel.cloud",
      email: "road.runner@acme.com",
      email_verified: true,
      picture: "https://my-instance.zitadel.cloud/assets/v1/avatar.png",
    },
    user: {
      id: "2219634455658",
      name: "Road Runner",
      email: "road.runner@acme.com",
      image: "https://my-instance.zitadel.cloud/assets/v1/avatar.png",
    },
  },
]

function urlOf(endpoint: OAuthEndpoint | undefined | { url?: string }): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url
}

function paramsOf(endpoint: OAuthEndpoint | undefined): Record<string, string | undefined> {
  if (endpoint === undefined) return {}
  if (typeof endpoint === "string") return Object.fromEntries(new URL(endpoint).searchParams)
  return (endpoint.params ?? {}) as Record<string, string | undefined>
}

/** The AUTH_<ID>_* variable prefix of a provider id. */
function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}`
}

const label = (c: Case) => `${c.id} (${c.type})`

describe.each(cases.map((c) => [label(c), c] as const))("%s", (_label, c) => {
  const provider = c.factory({ ...c.base })

  it("has its id, a name and its type", () => {
    expect(provider.id).toBe(c.id)
    expect(typeof provider.name).toBe("string")
    expect(provider.name.length).toBeGreaterThan(0)
    expect(provider.type).toBe(c.type)
  })

  it("uses https for every endpoint and the issuer", () => {
    const urls = [
      provider.issuer,
      urlOf(provider.authorization),
      urlOf(provider.token),
      urlOf(provider.userinfo),
      provider.wellKnown,
    ].filter((url): url is string => url !== undefined)
    expect(urls.length).toBeGreaterThan(0)
    for (const url of urls) expect(new URL(url).protocol).toBe("https:")
    // Discovery or explicit endpoints: one of the two.
    const explicit = urlOf(provider.authorization) && urlOf(provider.token)
    expect(Boolean(provider.issuer) || Boolean(explicit)).toBe(true)
    if (c.type === "oidc") expect(provider.issuer).toBeTruthy()
  })

  it("lets options override the defaults, keeping the default authorization URL", () => {
    const custom = c.factory({
      ...c.base,
      clientId: "custom-id",
      authorization: { params: { scope: "custom scope", prompt: "login" } },
      style: { brandColor: "#123456" },
    })
    expect(custom.clientId).toBe("custom-id")
    expect(paramsOf(custom.authorization).scope).toBe("custom scope")
    expect(paramsOf(custom.authorization).prompt).toBe("login")
    expect(urlOf(custom.authorization)).toBe(urlOf(provider.authorization))
    expect(custom.token).toEqual(provider.token)
    expect(custom.style?.brandColor).toBe("#123456")
    // The other default parameters stay.
    const defaults = paramsOf(provider.authorization)
    for (const [key, value] of Object.entries(defaults)) {
      if (key !== "scope" && key !== "prompt")
        expect(paramsOf(custom.authorization)[key]).toBe(value)
    }
  })

  it("lets a string authorization endpoint replace the default one", () => {
    const custom = c.factory({ ...c.base, authorization: "https://proxy.example/authorize?x=1" })
    expect(custom.authorization).toBe("https://proxy.example/authorize?x=1")
  })

  it("does not change the options object it is given", () => {
    const options = { ...c.base, authorization: { params: { scope: "a" } } }
    const copy = structuredClone(options)
    c.factory(options)
    expect(options).toEqual(copy)
  })

  it("maps the documented profile to a user", async () => {
    expect(provider.profile).toBeTypeOf("function")
    const user = await provider.profile!(structuredClone(c.sample), TOKENS)
    expect(typeof user.id).toBe("string")
    expect(user).toEqual(c.user)
  })

  it("has a brand color", () => {
    expect(provider.style?.brandColor).toMatch(/^#[0-9a-f]{6}$/i)
    if (provider.style?.text !== undefined) expect(provider.style.text).toMatch(/^#[0-9a-f]{6}$/i)
  })

  it("resolves in a configuration with its AUTH_<ID>_* variables", () => {
    const prefix = envPrefix(c.id)
    const env: Record<string, string> = {
      [`${prefix}_ID`]: "env-id",
      [`${prefix}_SECRET`]: "env-secret",
    }
    const issuer = c.base?.issuer
    if (typeof issuer === "string") env[`${prefix}_ISSUER`] = issuer
    const { issuer: _issuer, ...base } = c.base ?? {}
    const config: AuthConfig = {
      secret: SECRET,
      providers: [c.factory(base)],
      logger: quiet,
    }
    const resolved = resolveConfig(config, env)
    expect(resolved.error).toBeUndefined()
    const normalized = resolved.providers.get(c.id) as OAuthProviderConfig
    expect(normalized.clientId).toBe("env-id")
    expect(normalized.clientSecret).toBe("env-secret")
    if (typeof issuer === "string") expect(normalized.issuer).toBe(issuer)
  })
})

describe("the catalogue", () => {
  it("covers every provider id once per mode", () => {
    const ids = new Set(cases.map((c) => c.id))
    expect(ids.size).toBe(21)
  })
})

describe("factories passed uncalled (providers: [GitHub])", () => {
  it.each([
    ["GitHub", GitHub, "github", { AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s" }],
    ["Google", Google, "google", { AUTH_GOOGLE_ID: "id", AUTH_GOOGLE_SECRET: "s" }],
    ["Twitter", Twitter, "twitter", { AUTH_TWITTER_ID: "id", AUTH_TWITTER_SECRET: "s" }],
  ] as const)("%s gets its client from the environment", (_name, factory, id, env) => {
    const resolved = resolveConfig({ providers: [factory], secret: SECRET, logger: quiet }, env)
    expect(resolved.error).toBeUndefined()
    const provider = resolved.providers.get(id) as OAuthProviderConfig
    expect(provider.clientId).toBe("id")
    expect(provider.clientSecret).toBe("s")
  })

  it("reports a missing client ID by its variable name", () => {
    const resolved = resolveConfig({ providers: [GitHub], secret: SECRET, logger: quiet }, {})
    expect(resolved.error?.message).toMatch(/AUTH_GITHUB_ID/)
  })

  it("reads the issuer of Okta from AUTH_OKTA_ISSUER", () => {
    const env = {
      AUTH_OKTA_ID: "id",
      AUTH_OKTA_SECRET: "s",
      AUTH_OKTA_ISSUER: "https://example.okta.com/oauth2/default",
    }
    const resolved = resolveConfig({ providers: [Okta], secret: SECRET, logger: quiet }, env)
    expect(resolved.error).toBeUndefined()
    expect((resolved.providers.get("okta") as OAuthProviderConfig).issuer).toBe(
      "https://example.okta.com/oauth2/default",
    )
  })

  it("refuses Okta without an issuer", () => {
    const env = { AUTH_OKTA_ID: "id", AUTH_OKTA_SECRET: "s" }
    const resolved = resolveConfig({ providers: [Okta], secret: SECRET, logger: quiet }, env)
    expect(resolved.error?.message).toMatch(/AUTH_OKTA_ISSUER/)
  })
})
