/**
 * Options and variables that narrow who may sign in, across the catalogue: an issuer in
 * AUTH_<ID>_ISSUER or in code is used or refused, never ignored; a provider's narrowing
 * parameters (Google's `hd`, Slack's `team`, Auth0's `organization`, ZITADEL's organization
 * scopes) are locked and checked against the sign-in's claims, whichever way they were set.
 */
import { describe, expect, it, vi } from "vitest"

import { resolveConfig } from "../../src/config/resolve.js"
import { setEnvDefaults } from "../../src/index.js"
import { AccessDenied } from "../../src/errors.js"
import { identityOf } from "../../src/flows/oauth/profile.js"
import { keepLockedParams } from "../../src/flows/oauth/sign-in-rules.js"
import { signInRules, type RuledProvider } from "../../src/lib/provider-rules.js"
import type { OAuthProviderConfig, Provider } from "../../src/providers/index.js"
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
import type { TokenSet } from "../../src/types.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

function prefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}`
}

/** Resolves one provider with its client variables and `env`. */
function resolve(provider: Provider, id: string, env: Record<string, string> = {}) {
  const resolved = resolveConfig(
    { secret: SECRET, providers: [provider], logger: quiet },
    { [`${prefix(id)}_ID`]: "id", [`${prefix(id)}_SECRET`]: "secret", ...env },
  )
  return {
    error: resolved.error,
    provider: resolved.providers.get(id) as RuledProvider | undefined,
  }
}

function resolved(provider: Provider, id: string, env: Record<string, string> = {}) {
  const result = resolve(provider, id, env)
  expect(result.error).toBeUndefined()
  return result.provider!
}

function refusal(provider: Provider, id: string, env: Record<string, string> = {}): string {
  const { error } = resolve(provider, id, env)
  expect(error?.type).toBe("InvalidProvider")
  expect(error?.message).toContain(`"${id}"`)
  return error!.message
}

const rulesOf = (provider: RuledProvider) => provider[signInRules]
const check = (provider: RuledProvider, claims?: Record<string, unknown>, profile = {}) =>
  rulesOf(provider)?.check?.({ claims, profile })

describe("AUTH_<ID>_ISSUER and issuer options", () => {
  const fixedEndpoints: [string, Provider][] = [
    ["github", GitHub],
    ["gitlab", GitLab],
    ["discord", Discord],
    ["facebook", Facebook],
    ["atlassian", Atlassian],
    ["bitbucket", Bitbucket],
    ["reddit", Reddit],
    ["spotify", Spotify],
    ["twitter", Twitter],
    ["zoom", Zoom],
  ]

  it.each(fixedEndpoints)(
    "%s signs in at fixed endpoints: AUTH_<ID>_ISSUER and an issuer option are refused",
    (id, factory) => {
      const variable = refusal(factory, id, { [`${prefix(id)}_ISSUER`]: "https://sso.example" })
      expect(variable).toMatch(
        new RegExp(`cannot use ${prefix(id)}_ISSUER \\(https://sso.example\\)`),
      )
      expect(variable).toMatch(/Remove it/)
      const option = refusal(
        () => ({ ...(factory as () => OAuthProviderConfig)(), issuer: "https://sso.example" }),
        id,
      )
      expect(option).toMatch(/cannot use the issuer option/)
    },
  )

  it("points GitHub and GitLab users at baseUrl for their own servers", () => {
    const env = (id: string) => ({ [`${prefix(id)}_ISSUER`]: "https://code.example.com" })
    expect(refusal(GitHub, "github", env("github"))).toMatch(
      /GitHub Enterprise Server, pass baseUrl/,
    )
    expect(refusal(GitLab, "gitlab", env("gitlab"))).toMatch(/self-managed instance, pass baseUrl/)
  })

  it("takes GitHub's own issuer, from the variable or in code, and checks the callback's iss with it", () => {
    const own = "https://github.com/login/oauth"
    expect(resolved(GitHub, "github", { AUTH_GITHUB_ISSUER: own }).issuer).toBe(own)
    expect(resolved(GitHub({ issuer: own }), "github").issuer).toBe(own)
    const enterprise = GitHub({ baseUrl: "https://github.example.com" })
    expect(
      resolved(enterprise, "github", {
        AUTH_GITHUB_ISSUER: "https://github.example.com/login/oauth",
      }).issuer,
    ).toBe("https://github.example.com/login/oauth")
    expect(refusal(enterprise, "github", { AUTH_GITHUB_ISSUER: own })).toMatch(
      /its own issuer is https:\/\/github\.example\.com\/login\/oauth/,
    )
  })

  it.each([
    ["apple", Apple, "https://appleid.apple.com"],
    ["google", Google, "https://accounts.google.com"],
    ["linkedin", LinkedIn, "https://www.linkedin.com/oauth"],
    ["slack", Slack, "https://slack.com"],
    ["twitch", Twitch, "https://id.twitch.tv/oauth2"],
  ] as const)("%s has a fixed issuer: AUTH_<ID>_ISSUER must be it", (id, factory, issuer) => {
    expect(resolved(factory, id, { [`${prefix(id)}_ISSUER`]: issuer }).issuer).toBe(issuer)
    const message = refusal(factory, id, { [`${prefix(id)}_ISSUER`]: "https://evil.example" })
    expect(message).toMatch(
      new RegExp(`uses the issuer ${issuer}, but ${prefix(id)}_ISSUER is https://evil.example`),
    )
  })

  it.each([
    ["okta", Okta, "https://example.okta.com/oauth2/default"],
    ["keycloak", Keycloak, "https://sso.example.com/realms/acme"],
    ["auth0", Auth0, "https://example.us.auth0.com/"],
    ["zitadel", Zitadel, "https://example.zitadel.cloud"],
  ] as const)(
    "%s takes its issuer from the variable, and refuses a variable naming another than the code",
    (id, factory, issuer) => {
      expect(resolved(factory, id, { [`${prefix(id)}_ISSUER`]: issuer }).issuer).toBe(issuer)
      const inCode = (factory as (o: object) => OAuthProviderConfig)({ issuer })
      expect(resolved(inCode, id, { [`${prefix(id)}_ISSUER`]: issuer }).issuer).toBe(issuer)
      expect(refusal(inCode, id, { [`${prefix(id)}_ISSUER`]: "https://other.example" })).toMatch(
        /remove the variable or make the two agree/,
      )
    },
  )

  it("adds authentik's trailing slash to AUTH_AUTHENTIK_ISSUER as to an issuer in code", () => {
    const issuer = "https://authentik.example.com/application/o/app"
    expect(resolved(Authentik, "authentik", { AUTH_AUTHENTIK_ISSUER: issuer }).issuer).toBe(
      `${issuer}/`,
    )
    expect(
      resolved(Authentik({ issuer }), "authentik", { AUTH_AUTHENTIK_ISSUER: `${issuer}/` }).issuer,
    ).toBe(`${issuer}/`)
  })

  it("gives a custom OAuth 2.0 provider its AUTH_<ID>_ISSUER, as Auth.js does", () => {
    const custom: OAuthProviderConfig = {
      id: "corp",
      name: "Corp",
      type: "oauth",
      authorization: "https://sso.corp.example/authorize",
      token: "https://sso.corp.example/token",
    }
    const issuer = "https://sso.corp.example"
    expect(resolved(custom, "corp", { AUTH_CORP_ISSUER: issuer }).issuer).toBe(issuer)
    const config = { secret: SECRET, providers: [custom] }
    setEnvDefaults({ AUTH_CORP_ISSUER: issuer }, config)
    expect(config.providers[0]).toMatchObject({ issuer })
    expect(
      refusal({ ...custom, issuer }, "corp", { AUTH_CORP_ISSUER: "https://other.example" }),
    ).toMatch(/AUTH_CORP_ISSUER/)
  })

  it("refuses a client authentication method the token request would not use", () => {
    const custom: OAuthProviderConfig = {
      id: "corp",
      name: "Corp",
      type: "oidc",
      issuer: "https://sso.corp.example",
      client: { token_endpoint_auth_method: "private_key_jwt" as never },
    }
    expect(refusal(custom, "corp")).toMatch(
      /"private_key_jwt", which this version does not support/,
    )
  })
})

describe("narrowing parameters, however they were configured", () => {
  it("checks Google's hd claim: the domain (any case), or any Workspace domain with *", () => {
    const domain = resolved(Google({ authorization: { params: { hd: "Example.com" } } }), "google")
    expect(rulesOf(domain)?.lockedParams).toEqual(["hd"])
    expect(check(domain, { hd: "example.com" })).toBeUndefined()
    expect(check(domain, { hd: "evil.example" })).toMatch(/"evil\.example", not example\.com/)
    expect(check(domain, {})).toMatch(/no Google Workspace domain/)
    expect(check(domain, undefined)).toMatch(/no Google Workspace domain/)
    const any = resolved(Google({ authorization: { params: { hd: "*" } } }), "google")
    expect(check(any, { hd: "anything.example" })).toBeUndefined()
    expect(check(any, {})).toMatch(/no Google Workspace domain/)
  })

  it("finds hd set over the factory's object or in the authorization URL", () => {
    const spread = resolved(
      () => ({ ...Google(), authorization: { params: { hd: "example.com" } } }),
      "google",
    )
    expect(check(spread, { hd: "evil.example" })).toBeDefined()
    const inUrl = resolved(
      Google({ authorization: "https://accounts.google.com/o/oauth2/v2/auth?hd=example.com" }),
      "google",
    )
    expect(check(inUrl, { hd: "evil.example" })).toBeDefined()
    expect(rulesOf(resolved(Google, "google"))).toBeUndefined()
  })

  it("checks Slack's workspace, Auth0's organization (ID or name) and ZITADEL's organization", () => {
    const slack = resolved(Slack({ authorization: { params: { team: "T01" } } }), "slack")
    expect(check(slack, { "https://slack.com/team_id": "T01" })).toBeUndefined()
    expect(check(slack, { "https://slack.com/team_id": "T02" })).toMatch(/"T02", not T01/)

    const env = { AUTH_AUTH0_ISSUER: "https://example.us.auth0.com/" }
    const byId = resolved(
      Auth0({ authorization: { params: { organization: "org_1" } } }),
      "auth0",
      env,
    )
    expect(check(byId, { org_id: "org_1" })).toBeUndefined()
    expect(check(byId, { org_id: "org_2", org_name: "org_1" })).toMatch(/"org_2", not org_1/)
    const byName = resolved(
      Auth0({ authorization: { params: { organization: "Acme" } } }),
      "auth0",
      env,
    )
    expect(check(byName, { org_name: "acme" })).toBeUndefined()
    expect(check(byName, { org_id: "acme" })).toBeDefined()

    const scope = "openid urn:zitadel:iam:org:domain:primary:acme.example"
    const zitadel = resolved(
      Zitadel({ issuer: "https://example.zitadel.cloud", authorization: { params: { scope } } }),
      "zitadel",
    )
    const owner = "urn:zitadel:iam:user:resourceowner:primary_domain"
    expect(check(zitadel, {}, { [owner]: "acme.example" })).toBeUndefined()
    expect(check(zitadel, {}, { [owner]: "evil.example" })).toMatch(/"evil\.example", not acme/)
  })
})

describe("locked parameters at the start of a sign-in", () => {
  const google = resolved(Google({ authorization: { params: { hd: "example.com" } } }), "google")

  it("keeps a locked parameter's configured value over the request's, and only then", () => {
    const configured = { scope: "openid", hd: "example.com" }
    const merged = { ...configured, hd: "evil.example", prompt: "login" }
    keepLockedParams(google, configured, merged)
    expect(merged).toEqual({ scope: "openid", hd: "example.com", prompt: "login" })
    // Without a configured hd, the request's stands: there is nothing to keep.
    const free = { scope: "openid", hd: "evil.example" }
    keepLockedParams(resolved(Google, "google"), { scope: "openid" }, free)
    expect(free.hd).toBe("evil.example")
  })

  it("puts a locked scope value back into a scope the request replaced", () => {
    const scope = "openid urn:zitadel:iam:org:id:42"
    const zitadel = resolved(
      Zitadel({ issuer: "https://example.zitadel.cloud", authorization: { params: { scope } } }),
      "zitadel",
    )
    const merged = { scope: "openid email" }
    keepLockedParams(zitadel, { scope }, merged)
    expect(merged.scope).toBe("openid email urn:zitadel:iam:org:id:42")
  })
})

describe("the check of a sign-in", () => {
  const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
  const entra = () => resolved(MicrosoftEntraID({ tenantId: tenant }), "microsoft-entra-id")

  it("reads only claims oauth4webapi validated, never a token's own payload", async () => {
    // An unsigned ID token naming the right tenant: the flow never validated it.
    const payload = btoa(
      JSON.stringify({ iss: `https://login.microsoftonline.com/${tenant}/v2.0`, tid: tenant }),
    )
    const tokens = { access_token: "at", token_type: "bearer", id_token: `e30.${payload}.` }
    await expect(
      identityOf(entra(), { sub: "u1", tid: tenant }, tokens as unknown as TokenSet),
    ).rejects.toThrow(/no validated ID token/)
  })

  it("refuses before the app's profile callback runs, which cannot skip it", async () => {
    const profile = vi.fn(() => ({ id: "anyone" }))
    const provider = { ...entra(), profile }
    const tokens = { access_token: "at", token_type: "bearer" } as unknown as TokenSet
    const failure = identityOf(provider, { sub: "u1" }, tokens)
    await expect(failure).rejects.toBeInstanceOf(AccessDenied)
    expect(profile).not.toHaveBeenCalled()
  })
})
