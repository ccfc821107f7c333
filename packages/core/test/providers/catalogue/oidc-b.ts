/**
 * OpenID Connect providers: Kinde, LINE, Logto, OneLogin, Ory Hydra, Passage, PingOne, Roblox,
 * Salesforce, SimpleLogin, United Effects and Vipps.
 */
import type { Configuration } from "oidc-provider"

import Kinde from "../../../src/providers/kinde.js"
import LINE from "../../../src/providers/line.js"
import Logto from "../../../src/providers/logto.js"
import OneLogin from "../../../src/providers/onelogin.js"
import OryHydra from "../../../src/providers/ory-hydra.js"
import Passage from "../../../src/providers/passage.js"
import PingId from "../../../src/providers/ping-id.js"
import Roblox from "../../../src/providers/roblox.js"
import Salesforce from "../../../src/providers/salesforce.js"
import SimpleLogin from "../../../src/providers/simplelogin.js"
import UnitedEffects from "../../../src/providers/united-effects.js"
import Vipps from "../../../src/providers/vipps.js"
import { APP_ORIGIN } from "../../helpers/oidc-provider.js"
import type { CatalogueCase } from "./run.js"

const READ = "2026-11-25"

/** The features of the test provider (`configuration` replaces the whole `features` object). */
const FEATURES = { devInteractions: { enabled: false }, userinfo: { enabled: true } }

/**
 * LINE's channel: LINE signs a web login's ID token with HS256, keyed with the channel secret,
 * and takes the credentials in the token request's body. oidc-provider signs this client's
 * ID tokens so (a secret of at least 32 bytes, as HS256 keys are).
 */
const LINE_CHANNEL = { id: "1656789012", secret: "8f1c0c6e2b7d4a3e9c5b1a0f7e6d5c4b" }

const lineConfiguration: Partial<Configuration> = {
  clients: [
    {
      client_id: LINE_CHANNEL.id,
      client_secret: LINE_CHANNEL.secret,
      redirect_uris: [`${APP_ORIGIN}/auth/callback/line`],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
      id_token_signed_response_alg: "HS256",
    },
  ],
  enabledJWA: { idTokenSigningAlgValues: ["HS256", "RS256"] },
}

/** United Effects: the Auth Group's issuer is the only resource the authorization may name. */
const unitedEffectsConfiguration: Partial<Configuration> = {
  features: {
    ...FEATURES,
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined as unknown as string,
      useGrantedResource: () => false,
      getResourceServerInfo: (ctx, resource) => {
        if (resource !== ctx.oidc.issuer) throw new Error(`unexpected resource ${resource}`)
        return { scope: "", audience: resource, accessTokenFormat: "opaque" }
      },
    },
  },
}

/** Vipps: the `name` scope releases the name claims (the test provider knows `profile`). */
const vippsConfiguration: Partial<Configuration> = {
  claims: {
    openid: ["sub"],
    name: ["name", "given_name", "family_name"],
    email: ["email", "email_verified"],
  },
}

export const cases: CatalogueCase[] = [
  {
    kind: "oidc",
    id: "kinde",
    factory: Kinde,
    docs: { url: "https://docs.kinde.com/build/tokens/about-id-tokens/", read: READ },
    verifies:
      "issuer per business domain from AUTH_KINDE_ISSUER; the account is the ID token's sub",
    op: {
      path: "/acme-kinde",
      claims: {
        given_name: "Alice",
        family_name: "Liddell",
      },
    },
    env: (op) => ({ AUTH_KINDE_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "line",
    factory: LINE,
    docs: { url: "https://developers.line.biz/en/reference/line-login/", read: READ },
    verifies:
      "issuer https://access.line.me; ID token signed HS256 with the channel secret; client_secret_post",
    op: {
      issuer: "https://access.line.me",
      configuration: lineConfiguration,
      claims: { amr: ["pwd"] },
    },
    client: "post",
    env: () => ({ AUTH_LINE_ID: LINE_CHANNEL.id, AUTH_LINE_SECRET: LINE_CHANNEL.secret }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "logto",
    factory: Logto,
    docs: { url: "https://docs.logto.io/references/openid-connect/id-token-claims", read: READ },
    verifies:
      "issuer <tenant>/oidc from AUTH_LOGTO_ISSUER; offline_access asked; name from username",
    op: { path: "/oidc", claims: { name: null, username: "alice-l" } },
    env: (op) => ({ AUTH_LOGTO_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "alice-l",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "onelogin",
    factory: OneLogin,
    docs: { url: "https://developers.onelogin.com/openid-connect", read: READ },
    verifies:
      "issuer <subdomain>/oidc/2, completed from the bare origin given as AUTH_ONELOGIN_ISSUER",
    op: { path: "/oidc/2", claims: { groups: ["Employees"] } },
    env: (op) => ({ AUTH_ONELOGIN_ISSUER: new URL(op.issuer).origin }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "hydra",
    module: "ory-hydra",
    factory: OryHydra,
    docs: { url: "https://www.ory.sh/docs/oauth2-oidc/authorization-code-flow", read: READ },
    verifies: "provider id hydra (module ory-hydra): /auth/callback/hydra and AUTH_HYDRA_ISSUER",
    op: { path: "/hydra" },
    env: (op) => ({ AUTH_HYDRA_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "passage",
    factory: Passage,
    docs: { url: "https://docs.passage.id/hosted-login/oidc-client-configuration", read: READ },
    verifies: "issuer per app from AUTH_PASSAGE_ISSUER; client_secret_basic; no name or picture",
    op: {
      path: "/v1/apps/k9Xc2Lw7Qm3TnB8vR4sYpH1a",
      claims: {
        name: null,
        preferred_username: null,
        picture: null,
      },
    },
    env: (op) => ({ AUTH_PASSAGE_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: null,
      email: "alice@example.com",
      image: null,
    },
  },
  {
    kind: "oidc",
    id: "ping-id",
    factory: PingId,
    docs: {
      url: "https://developer.pingidentity.com/pingone-api/foundations/authentication-concepts/access-tokens-and-id-tokens/token-claims.html",
      read: READ,
    },
    verifies: "issuer <envID>/as from AUTH_PING_ID_ISSUER (dash in the id → AUTH_PING_ID_*)",
    op: {
      path: "/2f6b4c8e-1a3d-4e5f-9b7c-0d1e2f3a4b5c/as",
      claims: { env: "2f6b4c8e-1a3d-4e5f-9b7c-0d1e2f3a4b5c" },
    },
    env: (op) => ({ AUTH_PING_ID_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "roblox",
    factory: Roblox,
    docs: { url: "https://create.roblox.com/docs/cloud/reference/oauth2", read: READ },
    verifies: "issuer https://apis.roblox.com/oauth/ (trailing slash); scope openid profile",
    op: {
      issuer: "https://apis.roblox.com/oauth/",
      claims: {
        name: "Alice",
        nickname: "Alice",
        preferred_username: "alice_l",
        created_at: 1584664617,
        profile: "https://www.roblox.com/users/1516563360/profile",
        picture: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-Png/150/150/AvatarHeadshot/Png",
      },
    },
    expect: {
      providerAccountId: "alice",
      name: "Alice",
      email: null,
      image: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-Png/150/150/AvatarHeadshot/Png",
    },
  },
  {
    kind: "oidc",
    id: "salesforce",
    factory: Salesforce,
    docs: {
      url: "https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm",
      read: READ,
    },
    verifies: "issuer https://login.salesforce.com; profile from the userinfo endpoint; nonce",
    op: {
      issuer: "https://login.salesforce.com",
      claims: {
        user_id: "0055j00000XYZabAAB",
        organization_id: "00D5j00000ABCDeEAF",
        nickname: "alice.liddell",
      },
    },
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "simplelogin",
    factory: SimpleLogin,
    docs: { url: "https://simplelogin.io/docs/siwsl/app/", read: READ },
    verifies: "issuer https://app.simplelogin.io; picture from avatar_url",
    op: {
      issuer: "https://app.simplelogin.io",
      claims: {
        id: 2,
        email: "alice.alias@simplelogin.co",
        avatar_url: "https://app.simplelogin.io/static/default-avatar.png",
        client: "Latch test app",
      },
    },
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice.alias@simplelogin.co",
      image: "https://app.simplelogin.io/static/default-avatar.png",
    },
  },
  {
    kind: "oidc",
    id: "united-effects",
    factory: UnitedEffects,
    docs: { url: "https://docs.unitedeffects.com/integrations/nextauthjs", read: READ },
    verifies:
      "issuer per Auth Group from AUTH_UNITED_EFFECTS_ISSUER, sent as the resource indicator",
    op: { path: "/a1b2c3d4-auth-group", configuration: unitedEffectsConfiguration },
    env: (op) => ({ AUTH_UNITED_EFFECTS_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
  {
    kind: "oidc",
    id: "vipps",
    factory: Vipps,
    docs: {
      url: "https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/user-info",
      read: READ,
    },
    verifies:
      "issuer api.vipps.no/access-management-1.0/access/; scope openid name email; userinfo",
    op: {
      issuer: "https://api.vipps.no/access-management-1.0/access/",
      configuration: vippsConfiguration,
      claims: {
        given_name: "Alice",
        family_name: "Liddell",
      },
    },
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: null,
    },
  },
]
