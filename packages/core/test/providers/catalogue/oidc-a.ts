/**
 * OpenID Connect providers, A to I: Asgardeo, Azure AD (B2C), BankID Norge, Battle.net, Beyond
 * Identity, Descope, Duende IdentityServer, Frontegg, FusionAuth, Hugging Face, IdentityServer4.
 */
import Asgardeo from "../../../src/providers/asgardeo.js"
import AzureADB2C from "../../../src/providers/azure-ad-b2c.js"
import AzureAD from "../../../src/providers/azure-ad.js"
import BankIDNorway from "../../../src/providers/bankid-no.js"
import BattleNet from "../../../src/providers/battlenet.js"
import BeyondIdentity from "../../../src/providers/beyondidentity.js"
import Descope from "../../../src/providers/descope.js"
import DuendeIdentityServer6 from "../../../src/providers/duende-identity-server6.js"
import Frontegg from "../../../src/providers/frontegg.js"
import FusionAuth from "../../../src/providers/fusionauth.js"
import Huggingface from "../../../src/providers/huggingface.js"
import IdentityServer4 from "../../../src/providers/identity-server4.js"
import { APP_ORIGIN, CLIENTS } from "../../helpers/oidc-provider.js"
import type { CatalogueCase } from "./run.js"

const READ = "2026-11-25"
/** Alice, as the local provider knows her. */
const alice = {
  providerAccountId: "alice",
  name: "Alice Liddell",
  email: "alice@example.com",
  image: "https://img.example/alice.png",
}

const ENTRA_TENANT = "4a1c2b3d-5e6f-4071-8293-a4b5c6d7e8f9"
const B2C_TENANT = "0f1e2d3c-4b5a-4697-8877-665544332211"

export const cases: CatalogueCase[] = [
  {
    kind: "oidc",
    id: "asgardeo",
    factory: Asgardeo,
    docs: { url: "https://wso2.com/asgardeo/docs/guides/authentication/oidc/", read: READ },
    verifies: "issuer per organization under /t/<org>/oauth2/token, discovered there",
    op: { path: "/t/wonderland/oauth2/token", claims: { given_name: "Alice" } },
    env: (op) => ({ AUTH_ASGARDEO_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "azure-ad",
    factory: quietAzureAD,
    docs: {
      url: "https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference",
      read: READ,
    },
    verifies:
      "Microsoft Entra ID under the id azure-ad: AUTH_AZURE_AD_ISSUER's tenant, its iss and tid checked; client_secret_post; sub as the id",
    op: {
      issuer: `https://login.microsoftonline.com/${ENTRA_TENANT}/v2.0`,
      claims: { tid: ENTRA_TENANT, oid: "00000000-0000-0000-66f3-3332eca7ea81" },
    },
    client: "post",
    env: (op) => ({ AUTH_AZURE_AD_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "azure-ad-b2c",
    factory: AzureADB2C,
    docs: {
      url: "https://learn.microsoft.com/azure/active-directory-b2c/tokens-overview",
      read: READ,
    },
    verifies: "issuer per tenant and user flow (/tfp/<tenant>/<flow>/v2.0); email from emails[0]",
    op: {
      path: `/tfp/${B2C_TENANT}/B2C_1_signupsignin/v2.0`,
      claims: {
        emails: ["alice@wonderland.example"],
        oid: "9b2a1c44-7d1e-4a4f-9a3c-2f6d1e0b8c77",
        tfp: "B2C_1_signupsignin",
      },
    },
    env: (op) => ({ AUTH_AZURE_AD_B2C_ISSUER: op.issuer }),
    expect: { ...alice, email: "alice@wonderland.example", image: null },
  },
  {
    kind: "oidc",
    id: "bankid-no",
    factory: BankIDNorway,
    docs: {
      url: "https://confluence.bankidnorge.no/confluence/pdoidcl/technical-documentation/api/userinfo",
      read: READ,
    },
    verifies:
      "fixed issuer auth.bankid.no/auth/realms/prod; client_secret_post; nonce; the profile from the signed (RS256) userinfo JWT",
    op: {
      issuer: "https://auth.bankid.no/auth/realms/prod",
      claims: { bankid_altsub: "9578-6000-4-127698", amr: "BIS" },
      configuration: {
        // The client as BankID registers it: client_secret_post, userinfo signed with RS256.
        clients: [
          {
            client_id: CLIENTS.post.clientId,
            client_secret: CLIENTS.post.clientSecret,
            token_endpoint_auth_method: "client_secret_post",
            userinfo_signed_response_alg: "RS256",
            redirect_uris: [`${APP_ORIGIN}/auth/callback/bankid-no`],
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
          },
        ],
        features: {
          devInteractions: { enabled: false },
          userinfo: { enabled: true },
          jwtUserinfo: { enabled: true },
        },
      },
    },
    client: "post",
    expect: { ...alice, image: null },
  },
  {
    kind: "oidc",
    id: "battlenet",
    factory: BattleNet,
    docs: { url: "https://develop.battle.net/documentation/guides/using-oauth", read: READ },
    verifies:
      "the global issuer oauth.battle.net by default; scope openid only; the BattleTag as the name",
    op: {
      issuer: "https://oauth.battle.net",
      claims: { battle_tag: "Alice#1865" },
    },
    expect: { providerAccountId: "alice", name: "Alice#1865", email: null, image: null },
  },
  {
    kind: "oidc",
    id: "beyondidentity",
    factory: BeyondIdentity,
    docs: { url: "https://developer.beyondidentity.com/docs/next-auth", read: READ },
    verifies: "issuer per tenant, realm and application",
    op: {
      path: "/v1/tenants/00011f1183c67b69/realms/8f5bec58229e6f29/applications/2e6b1a3c-1f2a-4c55-9d1e-0a9b8c7d6e5f",
    },
    env: (op) => ({ AUTH_BEYONDIDENTITY_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "descope",
    factory: Descope,
    docs: { url: "https://docs.descope.com/identity-federation/", read: READ },
    verifies: "issuer per project (/<project ID>); PKCE and state without nonce",
    op: { path: "/P2AbCdEfGhIjKlMnOpQrStUvWxYz", claims: { phone_number: "+15555550100" } },
    env: (op) => ({ AUTH_DESCOPE_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "duende-identity-server6",
    factory: DuendeIdentityServer6,
    docs: { url: "https://docs.duendesoftware.com/identityserver/", read: READ },
    verifies: "issuer at the server's root, endpoints under /connect from discovery",
    op: {
      configuration: {
        routes: {
          authorization: "/connect/authorize",
          token: "/connect/token",
          userinfo: "/connect/userinfo",
          jwks: "/.well-known/openid-configuration/jwks",
        },
      },
    },
    env: (op) => ({ AUTH_DUENDE_IDENTITY_SERVER6_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "frontegg",
    factory: Frontegg,
    docs: { url: "https://docs.frontegg.com/docs/admin-portal-profile", read: READ },
    verifies:
      "issuer per environment domain, endpoints /oauth/authorize and /oauth/token from discovery; profilePictureUrl as the image",
    op: {
      configuration: { routes: { authorization: "/oauth/authorize", token: "/oauth/token" } },
      claims: {
        picture: undefined,
        profilePictureUrl: "https://img.example/alice-frontegg.png",
        roles: ["Admin"],
      },
    },
    env: (op) => ({ AUTH_FRONTEGG_ISSUER: op.issuer }),
    expect: { ...alice, image: "https://img.example/alice-frontegg.png" },
  },
  {
    kind: "oidc",
    id: "fusionauth",
    factory: FusionAuth,
    docs: {
      url: "https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens",
      read: READ,
    },
    verifies:
      "tenantId: the tenant's discovery document and tenantId on the sign-in; scope with offline_access; PKCE and state",
    op: {
      configuration: {
        routes: {
          authorization: "/oauth2/authorize",
          token: "/oauth2/token",
          userinfo: "/oauth2/userinfo",
        },
        scopes: ["openid", "offline_access", "email", "profile"],
      },
      claims: { authenticationType: "PASSWORD", roles: ["user"] },
    },
    options: () => ({ tenantId: "8f3b0c5e-2d7a-4b1e-9c6f-1a2b3c4d5e6f" }),
    env: (op) => ({ AUTH_FUSIONAUTH_ISSUER: op.issuer }),
    expect: alice,
  },
  {
    kind: "oidc",
    id: "huggingface",
    factory: Huggingface,
    docs: { url: "https://huggingface.co/docs/hub/oauth", read: READ },
    verifies: "fixed issuer https://huggingface.co; PKCE and state without nonce",
    op: {
      issuer: "https://huggingface.co",
      claims: { profile: "https://huggingface.co/alice", isPro: false, orgs: [] },
    },
    expect: alice,
  },
  {
    kind: "oidc",
    id: "identity-server4",
    factory: IdentityServer4,
    docs: {
      url: "https://identityserver4.readthedocs.io/en/latest/endpoints/discovery.html",
      read: READ,
    },
    verifies: "issuer at the server's root, endpoints under /connect from discovery",
    op: {
      configuration: {
        routes: {
          authorization: "/connect/authorize",
          token: "/connect/token",
          userinfo: "/connect/userinfo",
        },
      },
    },
    env: (op) => ({ AUTH_IDENTITY_SERVER4_ISSUER: op.issuer }),
    expect: alice,
  },
]

/**
 * AzureAD, without the deprecation warning its first call prints (the catalogue checks the flow;
 * microsoft-entra-id.test.ts checks the warning).
 */
function quietAzureAD(options?: Parameters<typeof AzureAD>[0]) {
  const warn = console.warn
  console.warn = () => {}
  try {
    return AzureAD(options)
  } finally {
    console.warn = warn
  }
}
