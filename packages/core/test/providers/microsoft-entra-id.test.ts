/**
 * Microsoft Entra ID's audience: from `tenantId`, the `issuer` option or
 * AUTH_MICROSOFT_ENTRA_ID_ISSUER, as the configuration is resolved; what cannot be enforced is
 * refused with a message naming the fix; a single tenant is checked on every sign-in.
 */
import { describe, expect, it, vi } from "vitest"

import { resolveConfig } from "../../src/config/resolve.js"
import { setEnvDefaults } from "../../src/index.js"
import { signInRules, type RuledProvider } from "../../src/lib/provider-rules.js"
import { customFetch } from "../../src/markers.js"
import type { Provider } from "../../src/providers/index.js"
import AzureAD from "../../src/providers/azure-ad.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import type { AuthConfig } from "../../src/types.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const LOGIN = "https://login.microsoftonline.com"
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"
const OTHER = "f8cdef31-a31e-4b4a-93e4-5f571e91255a"
const CONSUMERS = "9188040d-6c67-4c5b-b112-36a304b66dad"
const CLIENT = { AUTH_MICROSOFT_ENTRA_ID_ID: "client", AUTH_MICROSOFT_ENTRA_ID_SECRET: "secret" }

/** The provider as `Auth` runs it, with these variables (as SvelteKit passes them). */
function resolve(provider: Provider, env: Record<string, string> = {}) {
  const config: AuthConfig = { secret: SECRET, providers: [provider], logger: quiet }
  setEnvDefaults({ ...CLIENT, ...env }, config)
  const resolved = resolveConfig(config)
  return {
    error: resolved.error,
    provider: resolved.providers.get("microsoft-entra-id") as RuledProvider | undefined,
  }
}

function resolved(provider: Provider, env: Record<string, string> = {}): RuledProvider {
  const { error, provider: result } = resolve(provider, env)
  expect(error).toBeUndefined()
  return result!
}

function refusal(provider: Provider, env: Record<string, string> = {}): string {
  const { error } = resolve(provider, env)
  expect(error?.type).toBe("InvalidProvider")
  return error!.message
}

const issuer = (tenant: string, host = LOGIN) => `${host}/${tenant}/v2.0`
const check = (provider: RuledProvider, claims: Record<string, unknown> | undefined) =>
  provider[signInRules]?.check?.({ claims, profile: {} })

describe("the audience from AUTH_MICROSOFT_ENTRA_ID_ISSUER, the factory called without options", () => {
  it("is one tenant: OpenID Connect with its issuer, checked on every sign-in", () => {
    const provider = resolved(MicrosoftEntraID, {
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT),
    })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(issuer(TENANT))
    expect(provider.clientId).toBe("client")
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email" } })
    expect(provider.token).toBeUndefined()
    expect(provider[signInRules]?.check).toBeTypeOf("function")
  })

  it("reads the variable without setEnvDefaults too (process.env, or the config's env)", () => {
    const config: AuthConfig = { secret: SECRET, providers: [MicrosoftEntraID], logger: quiet }
    const result = resolveConfig(config, {
      ...CLIENT,
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT),
    })
    expect(result.error).toBeUndefined()
    expect(result.providers.get("microsoft-entra-id")).toMatchObject({
      type: "oidc",
      issuer: issuer(TENANT),
    })
  })

  it("accepts a trailing slash and an upper-case tenant ID, and names the tenant as tokens do", () => {
    const provider = resolved(MicrosoftEntraID, {
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: `${LOGIN}/${TENANT.toUpperCase()}/v2.0/`,
    })
    expect(provider.issuer).toBe(issuer(TENANT))
  })

  it("is every account for common and organizations: OAuth 2.0 on their endpoints", () => {
    for (const audience of ["common", "organizations"]) {
      const provider = resolved(MicrosoftEntraID, {
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(audience),
      })
      expect(provider.type).toBe("oauth")
      expect(provider.issuer).toBeUndefined()
      expect(provider.token).toBe(`${LOGIN}/${audience}/oauth2/v2.0/token`)
      expect(provider[signInRules]).toBeUndefined()
    }
  })

  it("is the personal-accounts tenant for consumers, on the consumers endpoints", () => {
    const provider = resolved(MicrosoftEntraID, {
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer("consumers"),
    })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(issuer(CONSUMERS))
    expect(provider.token).toBe(`${LOGIN}/consumers/oauth2/v2.0/token`)
    expect(check(provider, { iss: issuer(CONSUMERS), tid: CONSUMERS })).toBeUndefined()
    expect(check(provider, { iss: issuer(CONSUMERS), tid: TENANT })).toMatch(/tid/)
  })

  it("uses a national cloud's sign-in host and Microsoft Graph", () => {
    const gov = "https://login.microsoftonline.us"
    const tenant = resolved(MicrosoftEntraID, {
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT, gov),
    })
    expect(tenant.issuer).toBe(issuer(TENANT, gov))
    const any = resolved(MicrosoftEntraID({ profilePhotoSize: 48 }), {
      AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer("organizations", gov),
    })
    expect(any.token).toBe(`${gov}/organizations/oauth2/v2.0/token`)
    expect(any.userinfo).toMatchObject({ url: "https://graph.microsoft.us/v1.0/me" })
  })

  it("keeps an issuer on another host (Azure AD B2C) as it is, its iss checked by the flow", () => {
    const b2c = `https://contoso.b2clogin.com/${TENANT}/v2.0/`
    const provider = resolved(MicrosoftEntraID, { AUTH_MICROSOFT_ENTRA_ID_ISSUER: b2c })
    expect(provider.type).toBe("oidc")
    expect(provider.issuer).toBe(b2c)
  })

  it("keeps what was set on the object the factory returned", () => {
    const fetch = async () => new Response()
    const provider = resolved(
      () => ({
        ...MicrosoftEntraID(),
        [customFetch]: fetch,
        authorization: { params: { scope: "openid profile email offline_access" } },
        style: { brandColor: "#000000" },
      }),
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT) },
    )
    expect(provider.type).toBe("oidc")
    expect(provider[customFetch]).toBe(fetch)
    expect(provider.authorization).toEqual({
      params: { scope: "openid profile email offline_access" },
    })
    expect(provider.style).toEqual({ brandColor: "#000000" })
  })
})

describe("the audience from options", () => {
  it("is taken when tenantId, the issuer option and the variable agree, refused when not", () => {
    const options = { tenantId: TENANT, issuer: issuer(TENANT) }
    const env = { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT) }
    expect(resolved(MicrosoftEntraID(options), env)[signInRules]?.check).toBeTypeOf("function")
    expect(
      refusal(MicrosoftEntraID(options), { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(OTHER) }),
    ).toMatch(/AUTH_MICROSOFT_ENTRA_ID_ISSUER/)
  })

  it("refuses a tenant named by its domain name when resolved, not in the factory", () => {
    let provider: Provider | undefined
    expect(
      () => (provider = MicrosoftEntraID({ tenantId: "contoso.onmicrosoft.com" })),
    ).not.toThrow()
    expect(refusal(provider!)).toMatch(/tenant "contoso.onmicrosoft.com" cannot be enforced/)
  })
})

describe("what cannot be enforced is refused, naming the fix", () => {
  it.each([
    ["an empty tenantId", { tenantId: "" }, {}, /tenant ID/],
    [
      "a domain name in the issuer",
      {},
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer("contoso.com") },
      /tenant ID/,
    ],
    [
      "a v1.0 issuer",
      {},
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: `${LOGIN}/${TENANT}/` },
      /v2\.0 issuer: use https:\/\/login\.microsoftonline\.com\/<tenant ID>\/v2\.0/,
    ],
    [
      "an http issuer on Microsoft's host",
      {},
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT, "http://login.microsoftonline.com") },
      /v2\.0 issuer/,
    ],
    [
      "tenantId and the issuer option naming different tenants",
      { tenantId: TENANT, issuer: issuer(OTHER) },
      {},
      /different audiences/,
    ],
    [
      'tenantId "organizations" with a tenant issuer',
      { tenantId: "organizations" },
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(TENANT) },
      /different audiences/,
    ],
    [
      "tenantId with an issuer on another host",
      { tenantId: TENANT, issuer: `https://contoso.b2clogin.com/${TENANT}/v2.0/` },
      {},
      /give the issuer alone/,
    ],
    [
      "the variable naming another tenant than tenantId",
      { tenantId: TENANT },
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(OTHER) },
      /AUTH_MICROSOFT_ENTRA_ID_ISSUER is .*remove the variable or make the two agree/,
    ],
    [
      "the variable naming another tenant than the issuer option",
      { issuer: issuer(TENANT) },
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuer(OTHER) },
      /AUTH_MICROSOFT_ENTRA_ID_ISSUER/,
    ],
  ])("%s", (_name, options, env, message) => {
    const text = refusal(MicrosoftEntraID(options), env)
    expect(text).toMatch(/"microsoft-entra-id"/)
    expect(text).toMatch(message)
  })
})

describe("the check of a sign-in to one tenant", () => {
  const provider = () => resolved(MicrosoftEntraID({ tenantId: TENANT }))

  it("lets through the tenant's ID token, whatever the case of its tid", () => {
    expect(provider()[signInRules]?.check).toBeTypeOf("function")
    expect(check(provider(), { iss: issuer(TENANT), tid: TENANT })).toBeUndefined()
    expect(check(provider(), { iss: issuer(TENANT), tid: TENANT.toUpperCase() })).toBeUndefined()
  })

  it("refuses another tenant's tid, a missing tid, another issuer, and no ID token", () => {
    expect(check(provider(), { iss: issuer(TENANT), tid: OTHER })).toMatch(/tid/)
    expect(check(provider(), { iss: issuer(TENANT) })).toMatch(/tid/)
    expect(check(provider(), { iss: issuer(OTHER), tid: TENANT })).toMatch(/issued by/)
    expect(check(provider(), undefined)).toMatch(/no validated ID token/)
  })
})

describe("AzureAD (deprecated)", () => {
  it("warns once per process that it is Microsoft Entra ID now, naming the id to keep", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const first = AzureAD({ clientId: "client", clientSecret: "secret" })
      AzureAD({ clientId: "client", clientSecret: "secret" })
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /^\[latch\]\[warn\] azure-ad-provider-deprecated: .*MicrosoftEntraID.*id: "azure-ad"/,
      )
      expect(first.id).toBe("azure-ad")
    } finally {
      warn.mockRestore()
    }
  })
})
