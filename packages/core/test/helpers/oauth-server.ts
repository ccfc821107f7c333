/**
 * One configurable OAuth 2.0 authorization server on 127.0.0.1, for the plain OAuth providers
 * whose real servers cannot be reached from here. Each provider registers what its documentation
 * says: the authorization endpoint, how the token request authenticates the client (HTTP Basic,
 * or the id and secret in the body, under the names the provider uses), the token response's
 * shape, and its profile APIs with how they take the access token. The server then checks what
 * the real one checks — the client, the code, the redirect URI, the PKCE verifier, the access
 * token on every API call — and answers the documented shapes.
 *
 * The providers keep their real `https://` URLs: the server's `fetch` (the provider's
 * `customFetch`) sends `https://<host>/<path>` to `http://127.0.0.1:<port>/<host>/<path>`, with
 * the method, headers and body unchanged.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export const CLIENT_ID = "catalogue-client"
export const CLIENT_SECRET = "catalogue-secret-0123456789abcdef"

/** A profile API of the provider. */
export interface ApiSpec {
  /** The documented URL (query parameters the provider requires are checked too). */
  url: string
  /** @default "GET" */
  method?: "GET" | "POST"
  /**
   * How the access token must arrive: `Authorization: Bearer`, another scheme (`OAuth`), or a
   * query parameter (`access_token`, `oauth_token`). @default "bearer"
   */
  auth?: "bearer" | { scheme: string } | { query: string }
  /** Request headers the API requires (a version, an API key), checked case-insensitively. */
  headers?: Record<string, string>
  /** The JSON answer. */
  response: unknown
}

/** What a provider's server does, from its documentation. */
export interface ServerSpec {
  /** The authorization endpoint (origin and path) the sign-in must redirect to. */
  authorization: string
  /** The parameter naming the client in the authorization request. @default "client_id" */
  clientIdParam?: string
  /** The `response_type` the authorization request must carry. @default "code" */
  responseType?: string
  /** Whether the authorization request must carry a PKCE challenge (S256). @default false */
  pkce?: boolean
  token: {
    url: string
    /** @default "POST" (form body); "GET" takes the parameters in the query (WeChat). */
    method?: "POST" | "GET"
    /**
     * How the client authenticates: HTTP Basic, the id and secret as parameters, or (Azure
     * DevOps) a JWT bearer grant: the secret as `client_assertion`, the code as `assertion`.
     */
    auth: "basic" | "post" | "assertion"
    /** The names of the id and secret parameters. @default client_id, client_secret */
    idParam?: string
    secretParam?: string
    /** Whether the token request must repeat the redirect URI. @default true */
    redirectUri?: boolean
    /** The answer, given the access token the server issued. */
    response: (accessToken: string) => unknown
  }
  api: ApiSpec[]
}

interface Grant {
  provider: string
  redirectUri: string
  challenge: string | null
}

export interface OAuthServer {
  origin: string
  /** The providers' `fetch`: their `https://` URLs, answered by this server. */
  fetch: (input: string, init: RequestInit) => Promise<Response>
  /** Registers (or replaces) a provider's documented behaviour. */
  register(provider: string, spec: ServerSpec): void
  /**
   * The user consents at the authorization URL the app redirected to: checks it is the
   * provider's endpoint with the client, the redirect URI and (when required) a challenge, and
   * returns the callback URL the provider would redirect to.
   */
  authorize(provider: string, location: string): string
  /** What the server refused, with why (a test's failure message names it). */
  refusals: string[]
  /** The requests the server received: `METHOD host/path`. */
  requests: string[]
  stop(): Promise<void>
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url")
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(value))
}

/** `https://host/path` without the query, as the specs name endpoints. */
function where(url: URL): string {
  return `${url.host}${url.pathname}`
}

export async function startOAuthServer(): Promise<OAuthServer> {
  const specs = new Map<string, ServerSpec>()
  const grants = new Map<string, Grant>()
  const tokens = new Map<string, string>()
  const refusals: string[] = []
  const requests: string[] = []

  const refuse = (res: ServerResponse, status: number, error: string, why: string) => {
    refusals.push(why)
    json(res, status, { error, error_description: why })
  }

  async function token(req: IncomingMessage, res: ServerResponse, url: URL, spec: ServerSpec) {
    const t = spec.token
    if ((t.method ?? "POST") !== req.method) {
      return refuse(res, 405, "invalid_request", `token: ${req.method}, not ${t.method ?? "POST"}`)
    }
    const params = t.method === "GET" ? url.searchParams : new URLSearchParams(await body(req))
    const idParam = t.idParam ?? "client_id"
    const secretParam = t.secretParam ?? "client_secret"
    let id = params.get(idParam)
    let secret = params.get(secretParam)
    if (t.auth === "basic") {
      const header = req.headers.authorization ?? ""
      if (!header.startsWith("Basic ")) {
        return refuse(res, 401, "invalid_client", "token: no HTTP Basic authentication")
      }
      const decoded = Buffer.from(header.slice(6), "base64").toString("utf8")
      const colon = decoded.indexOf(":")
      id = decodeURIComponent(decoded.slice(0, colon))
      secret = decodeURIComponent(decoded.slice(colon + 1))
    }
    const assertion = t.auth === "assertion"
    if (assertion) {
      // The client is known by its secret alone.
      const type = params.get("client_assertion_type")
      if (type !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") {
        return refuse(res, 400, "invalid_client", `token: client_assertion_type ${type}`)
      }
      id = CLIENT_ID
      secret = params.get("client_assertion")
    }
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
      return refuse(res, 401, "invalid_client", `token: client ${id} / ${secret ? "***" : secret}`)
    }
    const code = params.get(assertion ? "assertion" : "code") ?? ""
    const grant = grants.get(code)
    grants.delete(code)
    const grantType = assertion
      ? "urn:ietf:params:oauth:grant-type:jwt-bearer"
      : "authorization_code"
    if (!grant || params.get("grant_type") !== grantType) {
      return refuse(res, 400, "invalid_grant", `token: unknown code or grant_type`)
    }
    if ((t.redirectUri ?? true) && params.get("redirect_uri") !== grant.redirectUri) {
      return refuse(res, 400, "invalid_grant", `token: redirect_uri ${params.get("redirect_uri")}`)
    }
    if (grant.challenge && s256(params.get("code_verifier") ?? "") !== grant.challenge) {
      return refuse(res, 400, "invalid_grant", "token: the PKCE verifier does not match")
    }
    const accessToken = randomBytes(16).toString("hex")
    tokens.set(accessToken, grant.provider)
    json(res, 200, t.response(accessToken))
  }

  function api(req: IncomingMessage, res: ServerResponse, url: URL, spec: ApiSpec) {
    const method = spec.method ?? "GET"
    if (req.method !== method) return refuse(res, 405, "invalid_request", `api: ${req.method}`)
    const documented = new URL(spec.url)
    for (const [key, value] of documented.searchParams) {
      if (url.searchParams.get(key) !== value) {
        return refuse(res, 400, "invalid_request", `api ${where(url)}: query ${key} missing`)
      }
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (req.headers[name.toLowerCase()] !== value) {
        return refuse(res, 400, "invalid_request", `api ${where(url)}: header ${name} missing`)
      }
    }
    const auth = spec.auth ?? "bearer"
    const header = req.headers.authorization ?? ""
    const presented =
      auth === "bearer"
        ? /^Bearer (.+)$/i.exec(header)?.[1]
        : "scheme" in auth
          ? new RegExp(`^${auth.scheme} (.+)$`).exec(header)?.[1]
          : (url.searchParams.get(auth.query) ?? undefined)
    if (!presented || !tokens.has(presented)) {
      return refuse(res, 401, "invalid_token", `api ${where(url)}: no valid access token`)
    }
    json(res, 200, spec.response)
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://server")
    // The first path segment is the host the provider's URL named.
    const [, host = "", ...rest] = url.pathname.split("/")
    const original = new URL(`https://${host}/${rest.join("/")}${url.search}`)
    requests.push(`${req.method} ${where(original)}`)
    for (const spec of specs.values()) {
      if (where(new URL(spec.token.url)) === where(original)) {
        return void token(req, res, original, spec).catch((e: unknown) =>
          refuse(res, 500, "server_error", String(e)),
        )
      }
      const match = spec.api.find((a) => where(new URL(a.url)) === where(original))
      if (match) return api(req, res, original, match)
    }
    refuse(res, 404, "not_found", `no route for ${req.method} ${where(original)}`)
  })
  const sockets = new Set<import("node:net").Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    origin,
    refusals,
    requests,
    register(provider, spec) {
      specs.set(provider, spec)
    },
    fetch(input, init) {
      const url = new URL(input)
      if (url.protocol !== "https:") return fetch(input, init)
      return fetch(`${origin}/${url.host}${url.pathname}${url.search}`, init)
    },
    authorize(provider, location) {
      const spec = specs.get(provider)
      if (!spec) throw new Error(`no server registered for ${provider}`)
      const url = new URL(location)
      const expected = new URL(spec.authorization)
      if (where(url) !== where(expected)) {
        throw new Error(`${provider}: authorization at ${where(url)}, not ${where(expected)}`)
      }
      const params = url.searchParams
      if (params.get(spec.clientIdParam ?? "client_id") !== CLIENT_ID) {
        throw new Error(`${provider}: the client is not in ${spec.clientIdParam ?? "client_id"}`)
      }
      if (params.get("response_type") !== (spec.responseType ?? "code")) {
        throw new Error(`${provider}: response_type ${params.get("response_type")}`)
      }
      const redirectUri = params.get("redirect_uri")
      if (!redirectUri) throw new Error(`${provider}: no redirect_uri`)
      const challenge = params.get("code_challenge")
      if (spec.pkce && (!challenge || params.get("code_challenge_method") !== "S256")) {
        throw new Error(`${provider}: no S256 code challenge`)
      }
      const code = randomBytes(12).toString("hex")
      grants.set(code, { provider, redirectUri, challenge })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      const state = params.get("state")
      if (state !== null) back.searchParams.set("state", state)
      return back.href
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
