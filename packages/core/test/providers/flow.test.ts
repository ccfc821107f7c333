/**
 * Whole sign-ins through `Auth` with built-in providers, against fakes that speak each
 * provider's documented protocol (no network: the provider's `fetch` is the fake). The fakes
 * check what the real servers check — client authentication, the redirect URI, the PKCE verifier
 * — and answer with the providers' own shapes, quirks included.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"

import { customFetch } from "../../src/markers.js"
import type { OAuthProviderConfig, ProviderFetch } from "../../src/providers/index.js"
import Apple from "../../src/providers/apple.js"
import GitHub from "../../src/providers/github.js"
import LINE from "../../src/providers/line.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Twitch from "../../src/providers/twitch.js"
import Twitter from "../../src/providers/twitter.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

const CLIENT_ID = "client-id"
const CLIENT_SECRET = "client-secret"

type Handler = (request: Request) => Response | Promise<Response>

interface Grant {
  redirectUri: string
  challenge: string | undefined
  nonce: string | undefined
}

/** base64url(SHA-256(verifier)): the S256 code challenge. */
async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")
}

/**
 * An authorization server: `authorize` plays the user's consent on an authorization URL and
 * returns the callback parameters; the token endpoint checks the grant as a real server does.
 */
class FakeServer {
  grants = new Map<string, Grant>()
  requests: Request[] = []
  routes = new Map<string, Handler>()

  constructor(
    readonly tokenUrl: string,
    readonly auth: "basic" | "post",
    readonly tokenResponse: (grant: Grant) => Promise<Record<string, unknown>>,
  ) {
    this.routes.set(`POST ${tokenUrl}`, (request) => this.token(request))
  }

  fetch: ProviderFetch = async (input, init) => {
    const request = new Request(input, init)
    this.requests.push(request.clone())
    const url = new URL(request.url)
    const handler = this.routes.get(`${request.method} ${url.origin}${url.pathname}`)
    return handler ? handler(request) : Response.json({ error: "not_found" }, { status: 404 })
  }

  /** The user consents: a code bound to the request's redirect URI, challenge and nonce. */
  authorize(location: string): URLSearchParams {
    const url = new URL(location)
    const code = `code-${this.grants.size + 1}`
    this.grants.set(code, {
      redirectUri: url.searchParams.get("redirect_uri") ?? "",
      challenge: url.searchParams.get("code_challenge") ?? undefined,
      nonce: url.searchParams.get("nonce") ?? undefined,
    })
    return new URLSearchParams({ code, state: url.searchParams.get("state") ?? "" })
  }

  async token(request: Request): Promise<Response> {
    const body = new URLSearchParams(await request.text())
    const invalid = (error: string) => Response.json({ error }, { status: 400 })
    let id: string | null
    let secret: string | null
    if (this.auth === "basic") {
      const header = request.headers.get("authorization") ?? ""
      if (!header.startsWith("Basic ")) return invalid("invalid_client")
      ;[id, secret] = atob(header.slice(6)).split(":").map(decodeURIComponent) as [string, string]
    } else {
      id = body.get("client_id")
      secret = body.get("client_secret")
    }
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return invalid("invalid_client")
    const grant = this.grants.get(body.get("code") ?? "")
    this.grants.delete(body.get("code") ?? "")
    if (!grant || body.get("grant_type") !== "authorization_code") return invalid("invalid_grant")
    if (body.get("redirect_uri") !== grant.redirectUri) return invalid("invalid_grant")
    if (grant.challenge && (await s256(body.get("code_verifier") ?? "")) !== grant.challenge) {
      return invalid("invalid_grant")
    }
    return Response.json(await this.tokenResponse(grant))
  }
}

let keys: Awaited<ReturnType<typeof generateKeyPair>>
let jwk: Record<string, unknown>

beforeAll(async () => {
  keys = await generateKeyPair("RS256")
  jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" }
})

/** An OpenID Provider: discovery, keys, and signed ID tokens carrying the request's nonce. */
function openIdProvider(
  issuer: string,
  endpoints: { authorization: string; token: string; userinfo?: string },
  auth: "basic" | "post",
  claims: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const server = new FakeServer(endpoints.token, auth, async (grant) => {
    const idToken = await new SignJWT({ ...claims, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience(CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(keys.privateKey)
    return {
      access_token: "access",
      token_type: "bearer",
      expires_in: 3600,
      id_token: idToken,
      ...extra,
    }
  })
  server.routes.set(`GET ${issuer}/.well-known/openid-configuration`, () =>
    Response.json({
      issuer,
      authorization_endpoint: endpoints.authorization,
      token_endpoint: endpoints.token,
      userinfo_endpoint: endpoints.userinfo,
      jwks_uri: `${issuer}/keys`,
      response_types_supported: ["code"],
      id_token_signing_alg_values_supported: ["RS256"],
    }),
  )
  server.routes.set(`GET ${issuer}/keys`, () => Response.json({ keys: [jwk] }))
  return server
}

/** Starts a sign-in with a provider: the 302 to its authorization endpoint. */
async function startSignIn(browser: Browser, id: string): Promise<URL> {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(`/auth/signin/${id}`, {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location") ?? "")
}

function browserFor(provider: OAuthProviderConfig<any>): Browser {
  return new Browser(
    testConfig({
      providers: [provider],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }),
  )
}

describe("GitHub", () => {
  function fakeGitHub(email: string | null) {
    const server = new FakeServer(
      "https://github.com/login/oauth/access_token",
      "basic",
      async () => ({
        access_token: "gho_token",
        token_type: "bearer",
        scope: "read:user,user:email",
      }),
    )
    const bearer = (request: Request) => request.headers.get("authorization") === "Bearer gho_token"
    server.routes.set("GET https://api.github.com/user", (request) =>
      bearer(request)
        ? Response.json({
            login: "octocat",
            id: 583231,
            name: "The Octocat",
            email,
            avatar_url: "https://avatars.githubusercontent.com/u/583231",
          })
        : Response.json({ message: "Bad credentials" }, { status: 401 }),
    )
    server.routes.set("GET https://api.github.com/user/emails", (request) =>
      bearer(request)
        ? Response.json([
            {
              email: "octocat@users.noreply.github.com",
              primary: false,
              verified: true,
              visibility: null,
            },
            { email: "octocat@github.com", primary: true, verified: true, visibility: "private" },
          ])
        : Response.json({ message: "Bad credentials" }, { status: 401 }),
    )
    return server
  }

  it("signs in with PKCE and state, reading the private primary email", async () => {
    const github = fakeGitHub(null)
    const browser = browserFor(
      GitHub({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: github.fetch }),
    )
    const authorize = await startSignIn(browser, "github")
    expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT_ID)
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email")
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256")
    expect(authorize.searchParams.get("state")).toBeTruthy()
    expect(authorize.searchParams.has("nonce")).toBe(false)

    const callback = await browser.fetch(
      `/auth/callback/github?${github.authorize(authorize.href)}`,
    )
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const session = await browser.session()
    expect(session?.user).toEqual({
      name: "The Octocat",
      email: "octocat@github.com",
      image: "https://avatars.githubusercontent.com/u/583231",
    })
    const urls = github.requests.map((request) => `${request.method} ${request.url}`)
    expect(urls).toEqual([
      "POST https://github.com/login/oauth/access_token",
      "GET https://api.github.com/user",
      "GET https://api.github.com/user/emails",
    ])
  })

  it("makes no emails call when the email is public", async () => {
    const github = fakeGitHub("public@example.com")
    const browser = browserFor(
      GitHub({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: github.fetch }),
    )
    const authorize = await startSignIn(browser, "github")
    await browser.fetch(`/auth/callback/github?${github.authorize(authorize.href)}`)
    expect((await browser.session())?.user?.email).toBe("public@example.com")
    expect(github.requests.some((request) => request.url.endsWith("/user/emails"))).toBe(false)
  })
})

describe("X (twitter)", () => {
  it("signs in with OAuth 2.0 and PKCE, the user under data", async () => {
    const x = new FakeServer("https://api.x.com/2/oauth2/token", "basic", async () => ({
      token_type: "bearer",
      expires_in: 7200,
      access_token: "x-token",
      scope: "users.read tweet.read",
    }))
    x.routes.set("GET https://api.x.com/2/users/me", (request) => {
      const url = new URL(request.url)
      if (request.headers.get("authorization") !== "Bearer x-token") {
        return Response.json({ title: "Unauthorized" }, { status: 401 })
      }
      const data: Record<string, string> = {
        id: "2244994945",
        name: "X Developers",
        username: "XDevelopers",
      }
      if (url.searchParams.get("user.fields")?.split(",").includes("profile_image_url")) {
        data.profile_image_url = "https://pbs.twimg.com/profile_images/1/xdev_normal.jpg"
      }
      return Response.json({ data })
    })
    const browser = browserFor(
      Twitter({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: x.fetch }),
    )
    const authorize = await startSignIn(browser, "twitter")
    expect(authorize.origin + authorize.pathname).toBe("https://x.com/i/oauth2/authorize")
    expect(authorize.searchParams.get("scope")).toBe("users.read tweet.read")
    expect(authorize.searchParams.get("code_challenge")).toBeTruthy()

    const callback = await browser.fetch(`/auth/callback/twitter?${x.authorize(authorize.href)}`)
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user).toEqual({
      name: "X Developers",
      email: null,
      image: "https://pbs.twimg.com/profile_images/1/xdev_normal.jpg",
    })
  })
})

describe("Twitch", () => {
  it("signs in through OpenID Connect although its token response has an array scope", async () => {
    const twitch = openIdProvider(
      "https://id.twitch.tv/oauth2",
      {
        authorization: "https://id.twitch.tv/oauth2/authorize",
        token: "https://id.twitch.tv/oauth2/token",
        userinfo: "https://id.twitch.tv/oauth2/userinfo",
      },
      "post",
      {
        sub: "713936733",
        preferred_username: "twitchdev",
        email: "dev@twitch.tv",
        email_verified: true,
        picture: "https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev.png",
      },
      { scope: ["openid", "user:read:email"], refresh_token: "refresh" },
    )
    const browser = browserFor(
      Twitch({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: twitch.fetch }),
    )
    const authorize = await startSignIn(browser, "twitch")
    expect(authorize.searchParams.get("scope")).toBe("openid user:read:email")
    expect(JSON.parse(authorize.searchParams.get("claims") ?? "{}")).toEqual({
      id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
    })
    expect(authorize.searchParams.get("nonce")).toBeTruthy()

    const callback = await browser.fetch(
      `/auth/callback/twitch?${twitch.authorize(authorize.href)}`,
    )
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user).toEqual({
      name: "twitchdev",
      email: "dev@twitch.tv",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev.png",
    })
  })
})

describe("Twitch without the scope rewrite", () => {
  it("fails: the array scope is what the rewrite is for", async () => {
    const twitch = openIdProvider(
      "https://id.twitch.tv/oauth2",
      {
        authorization: "https://id.twitch.tv/oauth2/authorize",
        token: "https://id.twitch.tv/oauth2/token",
      },
      "post",
      { sub: "713936733" },
      { scope: ["openid"] },
    )
    const provider = {
      ...Twitch({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
      [customFetch]: twitch.fetch,
    }
    const errors: Error[] = []
    const browser = new Browser(
      testConfig({
        providers: [provider],
        logger: { error: (error) => errors.push(error), warn: () => {}, debug: () => {} },
      }),
    )
    const authorize = await startSignIn(browser, "twitch")
    const callback = await browser.fetch(
      `/auth/callback/twitch?${twitch.authorize(authorize.href)}`,
    )
    expect(callback.headers.get("location")).toMatch(/\/auth\/error\?error=/)
    expect(await browser.session()).toBeNull()
    expect(errors.map((error) => error.message).join("\n")).toMatch(/scope/)
  })
})

describe("Apple", () => {
  it("signs in through a form_post callback, authenticating with client_secret_post", async () => {
    const apple = openIdProvider(
      "https://appleid.apple.com",
      {
        authorization: "https://appleid.apple.com/auth/authorize",
        token: "https://appleid.apple.com/auth/token",
      },
      "post",
      {
        sub: "001234.5f9e2b7c8a1d4e6f.1234",
        email: "x7y8z9@privaterelay.appleid.com",
        email_verified: "true",
        is_private_email: "true",
      },
    )
    const browser = browserFor(
      Apple({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, [customFetch]: apple.fetch }),
    )
    const authorize = await startSignIn(browser, "apple")
    expect(authorize.searchParams.get("response_mode")).toBe("form_post")
    expect(authorize.searchParams.get("scope")).toBe("openid name email")

    // Apple POSTs the callback from its own site: SameSite=Lax cookies stay behind.
    const params = apple.authorize(authorize.href)
    params.set("user", JSON.stringify({ name: { firstName: "Jane", lastName: "Doe" } }))
    const posted = await browser.fetch("/auth/callback/apple", {
      method: "POST",
      headers: { cookie: "" },
      form: Object.fromEntries(params),
    })
    expect(posted.status).toBe(303)
    const again = new URL(posted.headers.get("location") ?? "")
    expect(again.pathname).toBe("/auth/callback/apple")

    const callback = await browser.fetch(again.pathname + again.search)
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user).toEqual({
      name: null,
      email: "x7y8z9@privaterelay.appleid.com",
      image: null,
    })
  })
})

describe("Microsoft Entra ID, multi-tenant", () => {
  it("signs in on the common endpoints, reads Microsoft Graph's /me, and keeps the ID token's sub as the account id", async () => {
    // Each ID token names the user's own tenant as its issuer (a templated issuer in discovery).
    const tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    const entra = new FakeServer(
      "https://login.microsoftonline.com/common/oauth2/v2.0/token",
      "post",
      async () => ({
        token_type: "Bearer",
        scope: "openid User.Read",
        expires_in: 3599,
        access_token: "graph-token",
        id_token: await new SignJWT({
          sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
          oid: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
          tid: tenant,
        })
          .setProtectedHeader({ alg: "RS256", kid: "k1" })
          .setIssuer(`https://login.microsoftonline.com/${tenant}/v2.0`)
          .setAudience(CLIENT_ID)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(keys.privateKey),
      }),
    )
    entra.routes.set("GET https://graph.microsoft.com/v1.0/me", (request) =>
      request.headers.get("authorization") === "Bearer graph-token"
        ? Response.json({
            id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
            displayName: "Adele Vance",
            mail: "AdeleV@contoso.com",
            userPrincipalName: "AdeleV@contoso.com",
          })
        : Response.json({ error: { code: "InvalidAuthenticationToken" } }, { status: 401 }),
    )
    const accounts: unknown[] = []
    const browser = new Browser(
      testConfig({
        providers: [
          MicrosoftEntraID({
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            [customFetch]: entra.fetch,
          }),
        ],
        callbacks: {
          jwt({ token, account }) {
            if (account) accounts.push(account)
            return token
          },
        },
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
      }),
    )
    const authorize = await startSignIn(browser, "microsoft-entra-id")
    expect(authorize.href.split("?")[0]).toBe(
      "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    )
    expect(authorize.searchParams.get("scope")).toBe("openid User.Read")

    const callback = await browser.fetch(
      `/auth/callback/microsoft-entra-id?${entra.authorize(authorize.href)}`,
    )
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user).toEqual({
      name: "Adele Vance",
      email: "AdeleV@contoso.com",
      image: null,
    })
    // The id @auth/core stored for the same user: migrated accounts keep matching.
    expect(accounts).toMatchObject([
      {
        provider: "microsoft-entra-id",
        providerAccountId: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      },
    ])
  })
})

describe("ID tokens signed with the client secret (LINE)", () => {
  const ISSUER = "https://access.line.me"
  const SECRET = new TextEncoder().encode(CLIENT_SECRET)

  /** LINE's endpoints, its ID token signed by `sign`. */
  function fakeLine(sign: (token: SignJWT) => Promise<string>, alg = "HS256") {
    const server = new FakeServer(
      "https://api.line.me/oauth2/v2.1/token",
      "post",
      async (grant) => {
        const idToken = await sign(
          new SignJWT({ name: "Brown", nonce: grant.nonce, amr: ["linesso"] })
            .setProtectedHeader({ alg, typ: "JWT" })
            .setSubject("U4af4980629")
            .setIssuer(ISSUER)
            .setAudience(CLIENT_ID)
            .setIssuedAt()
            .setExpirationTime("5m"),
        )
        return {
          access_token: "line-at",
          token_type: "Bearer",
          expires_in: 2592000,
          id_token: idToken,
        }
      },
    )
    server.routes.set(`GET ${ISSUER}/.well-known/openid-configuration`, () =>
      Response.json({
        issuer: ISSUER,
        authorization_endpoint: "https://access.line.me/oauth2/v2.1/authorize",
        token_endpoint: "https://api.line.me/oauth2/v2.1/token",
        userinfo_endpoint: "https://api.line.me/oauth2/v2.1/userinfo",
        jwks_uri: "https://api.line.me/oauth2/v2.1/certs",
        response_types_supported: ["code"],
        id_token_signing_alg_values_supported: ["ES256"],
      }),
    )
    server.routes.set("GET https://api.line.me/oauth2/v2.1/certs", () =>
      Response.json({ keys: [jwk] }),
    )
    return server
  }

  async function signInWith(
    server: FakeServer,
    provider: OAuthProviderConfig<any> = LINE({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      [customFetch]: server.fetch,
    }),
  ) {
    const browser = browserFor(provider)
    const authorize = await startSignIn(browser, provider.id)
    const params = server.authorize(authorize.href)
    const callback = await browser.fetch(`/auth/callback/${provider.id}?${params}`)
    return { browser, location: new URL(callback.headers.get("location") ?? "") }
  }

  it("signs in with an HS256 ID token keyed with the channel secret", async () => {
    const { browser, location } = await signInWith(fakeLine((token) => token.sign(SECRET)))
    expect(location.href).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.name).toBe("Brown")
  })

  it("refuses an HS256 ID token keyed with another secret: no session", async () => {
    const other = new TextEncoder().encode("not-the-channel-secret-0123456789")
    const { browser, location } = await signInWith(fakeLine((token) => token.sign(other)))
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("Configuration")
    expect(await browser.session()).toBeNull()
  })

  it("refuses an HS256 ID token for a client registered for the issuer's keys", async () => {
    // The client secret is known to the client: a provider that signs with its keys must not
    // accept a token "signed" with the secret (algorithm confusion).
    const server = fakeLine((token) => token.sign(SECRET))
    const provider = {
      id: "line-keys",
      name: "LINE (keys)",
      type: "oidc" as const,
      issuer: ISSUER,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      client: { token_endpoint_auth_method: "client_secret_post" as const },
      [customFetch]: server.fetch,
    }
    const { browser, location } = await signInWith(server, provider as OAuthProviderConfig<any>)
    expect(location.pathname).toBe("/auth/error")
    expect(await browser.session()).toBeNull()
  })
})
