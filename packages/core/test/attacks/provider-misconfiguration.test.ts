/**
 * Attack: signing in from outside what a provider's configuration allows.
 *
 * A deployer narrows who may sign in with a provider option or variable: a Microsoft Entra
 * tenant (`AUTH_MICROSOFT_ENTRA_ID_ISSUER`, `tenantId`, `issuer`), a Google Workspace domain
 * (`hd`), a Slack workspace (`team`), an Auth0 or ZITADEL organization. The attacker is a user
 * from outside: another tenant, a consumer account, another workspace. They control their own
 * account at the provider and the sign-in request (its `authorizationParams` query, the
 * authorization URL they follow), never the provider's signatures.
 *
 * Each case is the attacker's sign-in, through real built-in providers against a real OpenID
 * Provider on 127.0.0.1 announcing the real issuers (the provider's `fetch` routes their URLs
 * there), and the safe outcome: no session, `AccessDenied` (or a failed check) on the error page.
 * Then configurations that name an audience Latch could not enforce: every request reports the
 * configuration error, and no sign-in starts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import { setEnvDefaults } from "../../src/index.js"
import { customFetch } from "../../src/markers.js"
import type { Provider } from "../../src/providers/index.js"
import Auth0 from "../../src/providers/auth0.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Slack from "../../src/providers/slack.js"
import Zitadel from "../../src/providers/zitadel.js"
import type { AuthConfig } from "../../src/types.js"
import {
  CLIENTS,
  discoveryOf,
  login,
  prefixTo,
  routedFetch,
  startOP,
  type AccountName,
  type OP,
  type Route,
} from "../helpers/oidc-provider.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

const SESSION = "authjs.session-token"
const LOGIN = "https://login.microsoftonline.com"
const TENANT_A = "aaaaaaaa-1111-4111-8111-aaaaaaaaaaaa"
const TENANT_B = "bbbbbbbb-2222-4222-8222-bbbbbbbbbbbb"
/** A tenant whose metadata names endpoints and keys that serve tenant B's users too. */
const TENANT_C = "cccccccc-3333-4333-8333-cccccccccccc"
const issuerOf = (tenant: string) => `${LOGIN}/${tenant}/v2.0`

let tenantA: OP
let tenantB: OP
let google: OP
let slack: OP
let auth0: OP
let zitadel: OP

beforeAll(async () => {
  ;[tenantA, tenantB, google, slack, auth0, zitadel] = await Promise.all([
    // Tenant A's users; bob's tokens name tenant B (a token Latch must not take for A's).
    startOP({
      issuer: issuerOf(TENANT_A),
      claims: { alice: { tid: TENANT_A, oid: "alice-oid" }, bob: { tid: TENANT_B } },
    }),
    startOP({ issuer: issuerOf(TENANT_B), claims: { bob: { tid: TENANT_B, oid: "bob-oid" } } }),
    startOP({
      issuer: "https://accounts.google.com",
      claims: { alice: { hd: "example.com" }, bob: { hd: "evil.example" } },
    }),
    startOP({
      issuer: "https://slack.com",
      claims: {
        alice: { "https://slack.com/team_id": "T0ACME" },
        bob: { "https://slack.com/team_id": "T0EVIL" },
      },
    }),
    startOP({
      claims: {
        alice: { org_id: "org_acme", org_name: "acme" },
        bob: { org_id: "org_evil", org_name: "evil" },
      },
    }),
    startOP({
      configuration: { scopes: ["openid", "offline_access", "urn:zitadel:iam:org:id:acme"] },
      claims: {
        alice: { "urn:zitadel:iam:user:resourceowner:id": "acme" },
        bob: { "urn:zitadel:iam:user:resourceowner:id": "evil" },
      },
    }),
  ])
})
afterAll(async () => {
  await Promise.all([tenantA, tenantB, google, slack, auth0, zitadel].map((op) => op?.stop()))
})

/**
 * Microsoft, made of the two tenants' providers: each tenant's discovery document, tenant C's
 * pointing at endpoints and keys that also serve tenant B, and the multi-tenant `common`
 * endpoints and Microsoft Graph answering for tenant B (the attacker's own tenant).
 */
function microsoftRoutes(): Route[] {
  return [
    discoveryOf(issuerOf(TENANT_A), tenantA),
    discoveryOf(issuerOf(TENANT_B), tenantB),
    (url) =>
      url.href === `${issuerOf(TENANT_C)}/.well-known/openid-configuration`
        ? Response.json({
            issuer: issuerOf(TENANT_C),
            authorization_endpoint: tenantB.endpoints.authorization,
            token_endpoint: tenantB.endpoints.token,
            jwks_uri: tenantB.endpoints.jwks,
            response_types_supported: ["code"],
            id_token_signing_alg_values_supported: ["RS256"],
          })
        : undefined,
    prefixTo(`${LOGIN}/common/oauth2/v2.0/authorize`, tenantB.endpoints.authorization),
    prefixTo(`${LOGIN}/common/oauth2/v2.0/token`, tenantB.endpoints.token),
    prefixTo("https://graph.microsoft.com/v1.0/me", tenantB.endpoints.api),
  ]
}

/** Where the browser really goes for a URL of a routed provider. */
function local(routes: Route[], href: string): string {
  for (const route of routes) {
    const answer = route(new URL(href), {})
    if (typeof answer === "string") return answer
  }
  return href
}

function configWith(provider: Provider, logger = quiet()): AuthConfig {
  return testConfig({ providers: [provider], logger })
}

function quiet() {
  return { error: vi.fn(), warn: () => {}, debug: () => {} }
}

/** How the deployer names tenant A (or C): the variable, `tenantId`, or `issuer`. */
type Form = "AUTH_MICROSOFT_ENTRA_ID_ISSUER" | "tenantId" | "issuer"

function entraConfig(form: Form, tenant: string, routes = microsoftRoutes()): AuthConfig {
  const fetch = routedFetch(...routes)
  if (form === "AUTH_MICROSOFT_ENTRA_ID_ISSUER") {
    // The factory, as `providers: [MicrosoftEntraID]` passes it, with the test's `fetch`.
    const config = configWith(() => ({ ...MicrosoftEntraID(), [customFetch]: fetch }))
    setEnvDefaults(
      {
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuerOf(tenant),
        AUTH_MICROSOFT_ENTRA_ID_ID: CLIENTS.post.clientId,
        AUTH_MICROSOFT_ENTRA_ID_SECRET: CLIENTS.post.clientSecret,
      },
      config,
    )
    return config
  }
  const audience = form === "tenantId" ? { tenantId: tenant } : { issuer: issuerOf(tenant) }
  return configWith(MicrosoftEntraID({ ...audience, ...CLIENTS.post, [customFetch]: fetch }))
}

interface Attempt {
  /** The provider's id. */
  provider: string
  account: AccountName
  /** `authorizationParams`: the query of the sign-in request. */
  query?: string
  /** Follows the authorization request at another URL, keeping its parameters. */
  detour?: string
  /** Drops RFC 9207's `iss` from the callback, as Microsoft's endpoints send none. */
  withoutIss?: boolean
  routes?: Route[]
}

/** The attacker's whole sign-in: the request, the provider's pages, the callback. */
async function attempt(config: AuthConfig, a: Attempt) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch(`/auth/signin/${a.provider}${a.query ?? ""}`, {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  expect(start.status).toBe(302)
  const authorization = new URL(start.headers.get("location") ?? "")
  const followed = a.detour ? `${a.detour}${authorization.search}` : authorization.href
  const back = new URL(
    await login(browser, local(a.routes ?? [], followed), { account: a.account }),
  )
  if (a.withoutIss) back.searchParams.delete("iss")
  const callback = await browser.fetch(back.pathname + back.search)
  return { browser, authorization, callback }
}

/** The sign-in ended with a session for that account. */
async function expectSignedIn(
  { browser, callback }: Awaited<ReturnType<typeof attempt>>,
  email: string,
) {
  expect(callback.status).toBe(302)
  expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
  expect((await browser.session())?.user?.email).toBe(email)
}

/** The sign-in ended on the error page with `error`, and nobody is signed in. */
async function expectRefused(
  { browser, callback }: Awaited<ReturnType<typeof attempt>>,
  error: "AccessDenied" | "Configuration",
) {
  expect(callback.status).toBe(302)
  const location = new URL(callback.headers.get("location") ?? "")
  expect(location.origin + location.pathname).toBe(`${ORIGIN}/auth/error`)
  expect(location.searchParams.get("error")).toBe(error)
  expect(callback.headers.getSetCookie().some((c) => c.startsWith(SESSION))).toBe(false)
  expect(await browser.session()).toBeNull()
}

const FORMS: Form[] = ["AUTH_MICROSOFT_ENTRA_ID_ISSUER", "tenantId", "issuer"]
const entra = { provider: "microsoft-entra-id" }

describe.each(FORMS)("Microsoft Entra ID limited to one tenant with %s", (form) => {
  it("signs in the tenant's users only: a token naming another tenant (tid) is refused", async () => {
    const user = await attempt(entraConfig(form, TENANT_A), {
      ...entra,
      account: "alice",
      routes: microsoftRoutes(),
    })
    expect(user.authorization.href.startsWith(tenantA.endpoints.authorization)).toBe(true)
    await expectSignedIn(user, "alice@example.com")

    const logger = quiet()
    const config = entraConfig(form, TENANT_A)
    config.logger = logger
    const stranger = await attempt(config, { ...entra, account: "bob", routes: microsoftRoutes() })
    await expectRefused(stranger, "AccessDenied")
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ type: "AccessDenied", message: expect.stringContaining("tid") }),
    )
  })
})

// Before the fix the options already selected the tenant: these cases run every form in one
// test, and the variable's form is the one that used to let the attacker in.
describe("Microsoft Entra ID limited to one tenant, with each form in turn", () => {
  it("refuses an ID token from another tenant's issuer", async () => {
    for (const form of FORMS) {
      // Tenant C's endpoints and keys serve tenant B too: bob of tenant B gets a validly
      // signed ID token, whose issuer is tenant B's. Microsoft sends no RFC 9207 `iss` in the
      // callback (and tenant C's metadata promises none): the ID token is what tells.
      const logger = quiet()
      const config = entraConfig(form, TENANT_C)
      config.logger = logger
      const result = await attempt(config, {
        ...entra,
        account: "bob",
        withoutIss: true,
        routes: microsoftRoutes(),
      })
      await expectRefused(result, "Configuration")
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({ type: "InvalidCheck", message: expect.stringContaining("iss") }),
      )
    }
  })

  it("refuses a user of another tenant who takes the sign-in through /common", async () => {
    for (const form of FORMS) {
      const result = await attempt(entraConfig(form, TENANT_A), {
        ...entra,
        account: "bob",
        detour: `${LOGIN}/common/oauth2/v2.0/authorize`,
        routes: microsoftRoutes(),
      })
      await expectRefused(result, "Configuration")
    }
  })
})

describe("Google limited to a Workspace domain (hd)", () => {
  const routes = () => [discoveryOf("https://accounts.google.com", google)]
  const googleConfig = (hd: string) =>
    configWith(
      Google({
        ...CLIENTS.basic,
        authorization: { params: { hd } },
        [customFetch]: routedFetch(...routes()),
      }),
    )
  const signIn = (hd: string, account: AccountName, query?: string) =>
    attempt(googleConfig(hd), { provider: "google", account, query, routes: routes() })

  it("signs in an account of the domain, and refuses one of another domain", async () => {
    await expectSignedIn(await signIn("example.com", "alice"), "alice@example.com")
    await expectRefused(await signIn("example.com", "bob"), "AccessDenied")
  })

  it("refuses a consumer account, which has no hd claim", async () => {
    await expectRefused(await signIn("example.com", "carol"), "AccessDenied")
  })

  it("keeps the configured hd when the sign-in request asks for another one", async () => {
    const result = await signIn("example.com", "bob", "?hd=evil.example")
    expect(result.authorization.searchParams.getAll("hd")).toEqual(["example.com"])
    await expectRefused(result, "AccessDenied")
  })

  it('with hd "*", refuses a consumer account and signs in any Workspace account', async () => {
    await expectRefused(await signIn("*", "carol"), "AccessDenied")
    await expectSignedIn(await signIn("*", "bob"), "bob@example.com")
  })
})

describe("Slack limited to a workspace (team)", () => {
  const routes = () => [discoveryOf("https://slack.com", slack)]
  const signIn = (account: AccountName, query?: string) =>
    attempt(
      configWith(
        Slack({
          ...CLIENTS.basic,
          authorization: { params: { team: "T0ACME" } },
          [customFetch]: routedFetch(...routes()),
        }),
      ),
      { provider: "slack", account, query, routes: routes() },
    )

  it("signs in members of the workspace only, whatever team the request names", async () => {
    await expectSignedIn(await signIn("alice"), "alice@example.com")
    await expectRefused(await signIn("bob"), "AccessDenied")
    const result = await signIn("bob", "?team=T0EVIL")
    expect(result.authorization.searchParams.get("team")).toBe("T0ACME")
    await expectRefused(result, "AccessDenied")
  })
})

describe("Auth0 limited to an organization", () => {
  const signIn = (organization: string, account: AccountName, query?: string) =>
    attempt(
      configWith(
        Auth0({
          issuer: auth0.issuer,
          ...CLIENTS.basic,
          authorization: { params: { organization } },
        }),
      ),
      { provider: "auth0", account, query },
    )

  it("signs in members of the organization only, named by ID or by name", async () => {
    await expectSignedIn(await signIn("org_acme", "alice"), "alice@example.com")
    await expectSignedIn(await signIn("ACME", "alice"), "alice@example.com")
    await expectRefused(await signIn("org_acme", "bob"), "AccessDenied")
    await expectRefused(await signIn("acme", "bob"), "AccessDenied")
  })

  it("keeps the configured organization when the sign-in request names another", async () => {
    const result = await signIn("org_acme", "bob", "?organization=org_evil")
    expect(result.authorization.searchParams.get("organization")).toBe("org_acme")
    await expectRefused(result, "AccessDenied")
  })
})

describe("ZITADEL limited to an organization (urn:zitadel:iam:org:id scope)", () => {
  const scope = "openid profile email urn:zitadel:iam:org:id:acme"
  const signIn = (account: AccountName, query?: string) =>
    attempt(
      configWith(
        Zitadel({ issuer: zitadel.issuer, ...CLIENTS.basic, authorization: { params: { scope } } }),
      ),
      { provider: "zitadel", account, query },
    )

  it("signs in members of the organization only, even when the request drops the scope", async () => {
    await expectSignedIn(await signIn("alice"), "alice@example.com")
    await expectRefused(await signIn("bob"), "AccessDenied")
    const result = await signIn("bob", `?scope=${encodeURIComponent("openid profile email")}`)
    expect(result.authorization.searchParams.get("scope")?.split(" ")).toContain(
      "urn:zitadel:iam:org:id:acme",
    )
    await expectRefused(result, "AccessDenied")
  })
})

describe("a configuration naming an audience Latch cannot enforce starts no sign-in", () => {
  /** Every request of the configuration answers its configuration error; none reaches `url`. */
  async function expectConfigurationError(config: AuthConfig, id: string, message: RegExp) {
    const browser = new Browser(config)
    const providers = await browser.fetch("/auth/providers")
    expect(providers.status).toBe(500)
    expect(((await providers.json()) as { message: string }).message).toMatch(message)
    const csrf = await browser.fetch("/auth/csrf")
    expect(csrf.status).toBe(500)
    const start = await browser.fetch(`/auth/signin/${id}`, { method: "POST" })
    expect(start.headers.get("location") ?? "").not.toMatch(/^https?:\/\/(?!localhost:3000)/)
  }

  function withEnv(provider: Provider, env: Record<string, string>): AuthConfig {
    const config = configWith(provider)
    setEnvDefaults(env, config)
    return config
  }

  it("refuses a tenant named by its domain name, which no ID token carries", async () => {
    await expectConfigurationError(
      withEnv(MicrosoftEntraID, {
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: `${LOGIN}/contoso.onmicrosoft.com/v2.0`,
        AUTH_MICROSOFT_ENTRA_ID_ID: "id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "secret",
      }),
      "microsoft-entra-id",
      /tenant ID/,
    )
  })

  it("refuses tenantId and AUTH_MICROSOFT_ENTRA_ID_ISSUER naming different tenants", async () => {
    await expectConfigurationError(
      withEnv(MicrosoftEntraID({ tenantId: TENANT_B }), {
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuerOf(TENANT_A),
        AUTH_MICROSOFT_ENTRA_ID_ID: "id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "secret",
      }),
      "microsoft-entra-id",
      /AUTH_MICROSOFT_ENTRA_ID_ISSUER/,
    )
  })

  it('refuses tenantId "common" with a tenant issuer, instead of accepting any account', async () => {
    await expectConfigurationError(
      withEnv(MicrosoftEntraID({ tenantId: "common" }), {
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: issuerOf(TENANT_A),
        AUTH_MICROSOFT_ENTRA_ID_ID: "id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "secret",
      }),
      "microsoft-entra-id",
      /different audiences/,
    )
  })

  it("refuses AUTH_GITLAB_ISSUER, which would leave sign-ins on gitlab.com", async () => {
    await expectConfigurationError(
      withEnv(GitLab, {
        AUTH_GITLAB_ISSUER: "https://gitlab.example.com",
        AUTH_GITLAB_ID: "id",
        AUTH_GITLAB_SECRET: "secret",
      }),
      "gitlab",
      /baseUrl/,
    )
  })

  it("refuses AUTH_GOOGLE_ISSUER naming another issuer than Google's", async () => {
    await expectConfigurationError(
      withEnv(Google, {
        AUTH_GOOGLE_ISSUER: "https://evil.example",
        AUTH_GOOGLE_ID: "id",
        AUTH_GOOGLE_SECRET: "secret",
      }),
      "google",
      /AUTH_GOOGLE_ISSUER/,
    )
  })
})
