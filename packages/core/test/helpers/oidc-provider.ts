/**
 * A real OpenID Provider (`oidc-provider`, certified) started in-process on 127.0.0.1, for the
 * OAuth and OIDC flow tests. Its login and consent pages are small HTML forms served next to
 * the provider; `login()` drives them over HTTP as a browser would, with its own cookie jar for
 * the provider's cookies.
 *
 * Besides the provider's own endpoints, the server answers `GET /api/user`: a plain OAuth 2.0
 * profile API in the style of GitHub's (`{ id, login, name, email, avatar_url }`), authorized by
 * an access token of this provider. oidc-provider's userinfo endpoint (`/me`) only accepts
 * access tokens with the `openid` scope, so a provider used as plain OAuth 2.0 (no `openid`)
 * reads its profile there.
 */
import { generateKeyPair, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { promisify } from "node:util"

import { parseSetCookie } from "cookie"
import Provider, {
  type Account,
  type Adapter,
  type AdapterPayload,
  type ClientMetadata,
  type Configuration,
} from "oidc-provider"

/** The app's origin in the tests, and the redirect proxy's. */
export const APP_ORIGIN = "http://localhost:3000"
export const PROXY_ORIGIN = "http://proxy.localhost:4000"

/** The provider ids the clients accept callbacks for: the tests' own, and built-in ones. */
export const PROVIDER_IDS = [
  "op",
  "oauth",
  "microsoft-entra-id",
  "google",
  "slack",
  "auth0",
  "zitadel",
] as const

/** Users of the provider. */
export const ACCOUNTS = {
  alice: {
    password: "wonderland",
    claims: {
      sub: "alice",
      email: "alice@example.com",
      email_verified: true,
      name: "Alice Liddell",
      preferred_username: "alice",
      picture: "https://img.example/alice.png",
    },
  },
  bob: {
    password: "builder",
    claims: {
      sub: "bob",
      email: "bob@example.com",
      email_verified: false,
      name: "Bob",
      preferred_username: "bob",
      picture: "https://img.example/bob.png",
    },
  },
  carol: {
    password: "singer",
    claims: {
      sub: "carol",
      email: "carol@example.org",
      email_verified: true,
      name: "Carol",
      preferred_username: "carol",
      picture: "https://img.example/carol.png",
    },
  },
} as const

export type AccountName = keyof typeof ACCOUNTS

/** The registered clients: one per token endpoint authentication method, and a second basic one. */
export const CLIENTS = {
  basic: { clientId: "latch-basic", clientSecret: "basic-secret-0123456789abcdef" },
  post: { clientId: "latch-post", clientSecret: "post-secret-0123456789abcdef" },
  public: { clientId: "latch-public" },
  other: { clientId: "latch-other", clientSecret: "other-secret-0123456789abcdef" },
} as const

function redirectUris(extra: readonly string[] = []): string[] {
  return [...PROVIDER_IDS, ...extra].flatMap((id) => [
    `${APP_ORIGIN}/auth/callback/${id}`,
    `${PROXY_ORIGIN}/auth/callback/${id}`,
  ])
}

function clientMetadata(providerIds?: readonly string[]): ClientMetadata[] {
  const common = {
    redirect_uris: redirectUris(providerIds),
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code" as const],
  }
  return [
    {
      ...common,
      client_id: CLIENTS.basic.clientId,
      client_secret: CLIENTS.basic.clientSecret,
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      ...common,
      client_id: CLIENTS.post.clientId,
      client_secret: CLIENTS.post.clientSecret,
      token_endpoint_auth_method: "client_secret_post",
    },
    { ...common, client_id: CLIENTS.public.clientId, token_endpoint_auth_method: "none" },
    {
      ...common,
      client_id: CLIENTS.other.clientId,
      client_secret: CLIENTS.other.clientSecret,
      token_endpoint_auth_method: "client_secret_basic",
    },
  ]
}

/**
 * The provider's storage (codes, tokens, sessions, grants…): one Map per provider instance,
 * with expiry. oidc-provider's built-in one works too, but warns on every instance.
 */
function memoryStorage(): (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expires: number }>()
  const index = new Map<string, string>()
  const live = (key: string): AdapterPayload | undefined => {
    const entry = store.get(key)
    if (!entry) return undefined
    if (entry.expires <= Date.now()) {
      store.delete(key)
      return undefined
    }
    return entry.payload
  }
  return (model) => {
    const key = (id: string) => `${model}:${id}`
    return {
      async upsert(id, payload, expiresIn) {
        const expires = expiresIn ? Date.now() + expiresIn * 1000 : Infinity
        store.set(key(id), { payload, expires })
        if (payload.grantId) index.set(`grant:${payload.grantId}:${key(id)}`, key(id))
        if (payload.uid) index.set(`uid:${model}:${payload.uid}`, key(id))
        if (payload.userCode) index.set(`userCode:${model}:${payload.userCode}`, key(id))
      },
      async find(id) {
        return live(key(id))
      },
      async findByUid(uid) {
        const found = index.get(`uid:${model}:${uid}`)
        return found ? live(found) : undefined
      },
      async findByUserCode(userCode) {
        const found = index.get(`userCode:${model}:${userCode}`)
        return found ? live(found) : undefined
      },
      async consume(id) {
        const payload = live(key(id))
        if (payload) payload.consumed = Math.floor(Date.now() / 1000)
      },
      async destroy(id) {
        store.delete(key(id))
      },
      async revokeByGrantId(grantId) {
        for (const [name, target] of index) {
          if (name.startsWith(`grant:${grantId}:`)) {
            store.delete(target)
            index.delete(name)
          }
        }
      },
    }
  }
}

/** A running provider. */
export interface OP {
  /**
   * The issuer identifier: `base`, unless `OPOptions.issuer` names another (a test then routes
   * that URL's discovery document to `base`).
   */
  issuer: string
  /** `http://127.0.0.1:<port>` and the mount path, if any: the base of the provider's endpoints. */
  base: string
  provider: Provider
  /** The provider's endpoints (as its discovery document names them). */
  endpoints: { authorization: string; token: string; userinfo: string; jwks: string; api: string }
  /** Every request the server received, as `METHOD /path`. */
  requests: string[]
  stop(): Promise<void>
}

async function signingKey() {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 })
  return {
    ...privateKey.export({ format: "jwk" }),
    kid: randomBytes(8).toString("hex"),
    use: "sig",
  }
}

/** The accounts of a provider, each with its claims and the provider's extra claims for it. */
function accountFinder(extra: OPOptions["claims"] = {}) {
  return (_ctx: unknown, id: string): Account | undefined => {
    if (!Object.hasOwn(ACCOUNTS, id)) return undefined
    const { claims } = ACCOUNTS[id as AccountName]
    return { accountId: id, claims: () => ({ ...claims, ...extra[id as AccountName] }) }
  }
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  )
}

function page(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status
  res.setHeader("content-type", "text/html; charset=utf-8")
  res.setHeader("cache-control", "no-store")
  res.end(`<!doctype html><html><body>${body}</body></html>`)
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = ""
  for await (const chunk of req) text += String(chunk)
  return new URLSearchParams(text)
}

/** The provider's login and consent pages (`interactions.url` points here). */
async function interaction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  step: string | undefined,
): Promise<void> {
  const details = await provider.interactionDetails(req, res)
  if (details.uid !== uid) return page(res, 400, "<p>interaction mismatch</p>")
  const base = `/interaction/${encodeURIComponent(uid)}`

  if (step === undefined && req.method === "GET") {
    if (details.prompt.name === "login") {
      return page(
        res,
        200,
        `<form method="post" action="${base}/login">` +
          `<input name="login" value="${escapeHtml(String(details.params.login_hint ?? ""))}">` +
          `<input name="password" type="password"><button>Sign in</button></form>`,
      )
    }
    return page(
      res,
      200,
      `<p>${escapeHtml(String(details.params.client_id))} asks for ` +
        `${escapeHtml(String(details.params.scope ?? ""))}</p>` +
        `<form method="post" action="${base}/confirm"><button>Allow</button></form>` +
        `<a href="${base}/abort">Deny</a>`,
    )
  }
  if (step === "login" && req.method === "POST") {
    const form = await formBody(req)
    const name = form.get("login") ?? ""
    const account = ACCOUNTS[name as AccountName]
    if (!Object.hasOwn(ACCOUNTS, name) || account.password !== form.get("password")) {
      return page(res, 401, `<p>Wrong login or password</p>`)
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: name } },
      { mergeWithLastSubmission: false },
    )
  }
  if (step === "confirm" && req.method === "POST") {
    const { prompt, params, session } = details
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) })
    const missing = prompt.details as {
      missingOIDCScope?: string[]
      missingOIDCClaims?: string[]
      missingResourceScopes?: Record<string, string[]>
    }
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(" "))
    }
    const grantId = await grant.save()
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    )
  }
  if (step === "abort" && req.method === "GET") {
    return provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The user refused" },
      { mergeWithLastSubmission: false },
    )
  }
  return page(res, 404, "<p>not found</p>")
}

/** `GET /api/user`: a GitHub-style profile for a bearer access token of this provider. */
async function profileApi(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const [scheme, value] = (req.headers.authorization ?? "").split(" ")
  const token =
    scheme?.toLowerCase() === "bearer" && value ? await provider.AccessToken.find(value) : undefined
  res.setHeader("content-type", "application/json")
  if (!token || token.isExpired) {
    res.statusCode = 401
    res.setHeader("www-authenticate", 'Bearer error="invalid_token"')
    return res.end(JSON.stringify({ message: "Bad credentials" }))
  }
  const { claims } = ACCOUNTS[token.accountId as AccountName]
  res.end(
    JSON.stringify({
      id: claims.sub,
      login: claims.preferred_username,
      name: claims.name,
      email: claims.email,
      avatar_url: claims.picture,
    }),
  )
}

/** What `startOP` may change. */
export interface OPOptions {
  /**
   * A path under which the provider is mounted, making the issuer `http://127.0.0.1:<port><path>`
   * (as Keycloak's realms or GitHub's `https://github.com/login/oauth`). @default none
   */
  path?: string
  /** Merged over the test configuration. */
  configuration?: Partial<Configuration>
  /**
   * The issuer identifier to announce and sign ID tokens with, instead of the server's own URL:
   * a real provider's (`https://accounts.google.com`, a Microsoft tenant's), whose discovery
   * document the test's `fetch` then fetches from `base`. @default the server's URL
   */
  issuer?: string
  /** Ids of more providers whose callback URLs the clients accept. */
  providerIds?: readonly string[]
  /** Claims added to accounts' (a tenant's `tid`…), released with the `openid` scope. */
  claims?: Partial<Record<AccountName, Record<string, unknown>>>
}

/** Starts a provider on 127.0.0.1 with a random free port. */
export async function startOP(options: OPOptions = {}): Promise<OP> {
  const mount = options.path?.replace(/\/+$/, "") ?? ""
  const requests: string[] = []
  // Created once the port is known (the issuer names it); requests arrive only after that.
  const current: { provider?: Provider } = {}
  const server = createServer((req, res) => {
    const provider = current.provider!
    const url = new URL(req.url ?? "/", "http://op")
    requests.push(`${req.method} ${url.pathname}`)
    if (mount && (url.pathname === mount || url.pathname.startsWith(`${mount}/`))) {
      // As a router mounting the provider does: the provider sees the path below its mount.
      const original = req.url!
      Object.assign(req, { originalUrl: original, url: original.slice(mount.length) || "/" })
      return provider.callback()(req, res)
    }
    const step = /^\/interaction\/([^/]+)(?:\/([a-z]+))?$/.exec(url.pathname)
    const answer = step
      ? interaction(provider, req, res, decodeURIComponent(step[1]!), step[2])
      : url.pathname === "/api/user"
        ? profileApi(provider, req, res)
        : undefined
    if (!answer) {
      if (mount) return page(res, 404, "<p>not found</p>")
      return provider.callback()(req, res)
    }
    answer.catch((error: unknown) => {
      if (!res.headersSent) page(res, 500, `<p>${escapeHtml(String(error))}</p>`)
      else res.end()
    })
  })
  const sockets = new Set<import("node:net").Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}${mount}`
  const issuer = options.issuer ?? base
  const extraClaims = new Set(Object.values(options.claims ?? {}).flatMap((c) => Object.keys(c)))

  const configuration: Configuration = {
    clients: clientMetadata(options.providerIds),
    findAccount: accountFinder(options.claims),
    claims: {
      openid: ["sub", ...extraClaims],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username", "picture"],
    },
    // The profile in the ID token, as most providers do (oidc-provider otherwise keeps the
    // scope's claims for the userinfo endpoint when an access token is issued).
    conformIdTokenClaims: false,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
    },
    pkce: { required: () => true },
    clientBasedCORS: () => false,
    cookies: { keys: [randomBytes(32).toString("hex")] },
    jwks: { keys: [await signingKey()] },
    adapter: memoryStorage(),
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 86400,
    },
    ...options.configuration,
  }
  const provider = new Provider(issuer, configuration)
  current.provider = provider

  return {
    issuer,
    base,
    provider,
    endpoints: {
      authorization: `${base}/auth`,
      token: `${base}/token`,
      userinfo: `${base}/me`,
      jwks: `${base}/jwks`,
      api: `http://127.0.0.1:${port}/api/user`,
    },
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** The provider's cookies, per browser (the provider's session lives on between sign-ins). */
const jars = new WeakMap<object, Map<string, string>>()

function jarOf(browser: object): Map<string, string> {
  let jar = jars.get(browser)
  if (!jar) jars.set(browser, (jar = new Map()))
  return jar
}

/** What `login` does at the provider's pages. */
export interface LoginOptions {
  /** @default "alice" */
  account?: AccountName
  /** @default the account's password */
  password?: string
  /** Whether to allow the app's request on the consent page (false: "Deny"). @default true */
  consent?: boolean
  /** Where the flow ends: the first redirect to a URL under this origin. @default APP_ORIGIN */
  returnTo?: string
}

/**
 * Follows the authorization request at the provider, signs in and answers the consent page
 * (when the provider shows them: a provider session or an earlier grant skips them), and
 * returns the redirect back to the app: `…/auth/callback/<id>?code=…&state=…&iss=…`.
 */
export async function login(
  browser: object,
  authorizationUrl: string,
  options: LoginOptions = {},
): Promise<string> {
  const back = await loginAnswer(browser, authorizationUrl, options)
  if (back.form) throw new Error(`The provider answered with a form_post to ${back.url}`)
  return back.url
}

/**
 * What the provider sends back to the app: a redirect (`url` with the code in its query), or,
 * with `response_mode=form_post`, an auto-submitting form whose `fields` the browser POSTs to
 * `url` from the provider's site.
 */
export interface LoginAnswer {
  url: string
  form?: URLSearchParams
}

/** `login`, also following a `response_mode=form_post` answer. */
export async function loginAnswer(
  browser: object,
  authorizationUrl: string,
  options: LoginOptions = {},
): Promise<LoginAnswer> {
  const account = options.account ?? "alice"
  const password = options.password ?? ACCOUNTS[account].password
  const returnTo = options.returnTo ?? APP_ORIGIN
  const jar = jarOf(browser)
  let url = authorizationUrl
  let init: RequestInit = {}
  for (let step = 0; step < 20; step++) {
    if (new URL(url).origin === new URL(returnTo).origin) return { url }
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "))
    const response = await fetch(url, { ...init, headers, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(line)
      const expired =
        !cookie.value || cookie.maxAge === 0 || (cookie.expires && cookie.expires <= new Date())
      if (expired) jar.delete(cookie.name)
      else jar.set(cookie.name, cookie.value!)
    }
    const location = response.headers.get("location")
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href
      init = {}
      continue
    }
    const html = await response.text()
    if (response.status !== 200) {
      throw new Error(`The provider answered ${response.status} at ${url}: ${html.slice(0, 500)}`)
    }
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
    if (action && new URL(action, url).origin === new URL(returnTo).origin) {
      const form = new URLSearchParams()
      for (const [, name, value] of html.matchAll(
        /<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g,
      )) {
        form.set(name!, unescapeHtml(value!))
      }
      return { url: new URL(action, url).href, form }
    }
    if (action?.endsWith("/login")) {
      url = new URL(action, url).href
      init = { method: "POST", body: new URLSearchParams({ login: account, password }) }
    } else if (action?.endsWith("/confirm")) {
      if (options.consent === false) {
        url = new URL(/<a href="([^"]+\/abort)"/.exec(html)![1]!, url).href
        init = {}
      } else {
        url = new URL(action, url).href
        init = { method: "POST", body: new URLSearchParams() }
      }
    } else {
      throw new Error(`Unexpected page at ${url}: ${html.slice(0, 500)}`)
    }
  }
  throw new Error(`Too many steps at the provider, last at ${url}`)
}

function unescapeHtml(value: string): string {
  return value.replace(/&(#x?[0-9a-f]+|amp|lt|gt|quot);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' }
    if (entity in named) return named[entity]!
    const hex = entity[1] === "x" || entity[1] === "X"
    return String.fromCodePoint(parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10))
  })
}

/** A URL a test's `fetch` answers: with a response, or with another URL to fetch instead. */
export type Route = (url: URL, init: RequestInit) => Response | string | undefined

/**
 * A provider's `fetch` for built-in providers whose URLs are fixed (Google's, a Microsoft
 * tenant's…): each route may answer a URL or send it elsewhere (to a local provider); URLs no
 * route takes are fetched as they are, and the requested URLs are recorded.
 */
export function routedFetch(...routes: Route[]) {
  const requested: string[] = []
  const fetchFn = async (input: string, init: RequestInit): Promise<Response> => {
    requested.push(`${init.method ?? "GET"} ${input}`)
    const url = new URL(input)
    for (const route of routes) {
      const answer = route(url, init)
      if (answer instanceof Response) return answer
      if (typeof answer === "string") return fetch(answer, init)
    }
    return fetch(input, init)
  }
  return Object.assign(fetchFn, { requested })
}

/** A route sending an issuer's discovery document to a local provider's. */
export function discoveryOf(issuer: string, op: OP): Route {
  const wellKnown = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
  return (url) =>
    url.href === wellKnown ? `${op.base}/.well-known/openid-configuration` : undefined
}

/** A route sending the URLs under `prefix` to the same paths under `target`. */
export function prefixTo(prefix: string, target: string): Route {
  return (url) => (url.href.startsWith(prefix) ? target + url.href.slice(prefix.length) : undefined)
}

/** A provider that rotates refresh tokens, with access tokens as short-lived as a test asks. */
export interface RotatingOP extends OP {
  /** The lifetime, in seconds, of the access tokens issued next. */
  accessTokenTTL: number
  /** The refresh grants the provider answered, in order: "ok", or the error it gave. */
  grants: string[]
}

/**
 * A provider for refresh tests: it issues a refresh token with every code, rotates it on each
 * use (a spent one is refused, and spending it again revokes the grant), and records each
 * refresh grant's outcome in `grants`.
 */
export async function startRotatingOP(accessTokenTTL = 1): Promise<RotatingOP> {
  const state = { accessTokenTTL, grants: [] as string[] }
  const op = await startOP({
    configuration: {
      issueRefreshToken: async () => true,
      rotateRefreshToken: () => true,
      ttl: {
        AccessToken: () => state.accessTokenTTL,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        RefreshToken: 86400,
      },
    },
  })
  const isRefresh = (ctx: { oidc: { params?: Record<string, unknown> } }) =>
    ctx.oidc.params?.grant_type === "refresh_token"
  op.provider.on("grant.success", (ctx) => {
    if (isRefresh(ctx)) state.grants.push("ok")
  })
  op.provider.on("grant.error", (ctx, error) => {
    if (isRefresh(ctx)) state.grants.push((error as { error?: string }).error ?? "error")
  })
  return Object.defineProperties(op, {
    grants: { value: state.grants },
    accessTokenTTL: {
      get: () => state.accessTokenTTL,
      set: (seconds: number) => void (state.accessTokenTTL = seconds),
    },
  }) as RotatingOP
}
