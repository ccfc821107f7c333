// An OAuth 2.0 authorization server on 127.0.0.1 for the refresh flow: the authorization code
// grant with PKCE (S256) and the refresh token grant (RFC 6749 §6) with rotation — a refresh
// token is good once, and only the newest access token opens the API. It counts grants per
// client, so that each runtime's run (its own client id) can check that several session reads
// at once spent one refresh token.
import { createHash, randomBytes } from "node:crypto"
import { createServer } from "node:http"

const SECRET = "acme-secret"
const token = () => randomBytes(16).toString("hex")
const s256 = (verifier) => createHash("sha256").update(verifier).digest("base64url")

export async function startOAuthServer() {
  const codes = new Map()
  /** Per client: the live refresh and access tokens, and the grant counts. */
  const clients = new Map()
  const client = (id) => {
    if (!clients.has(id)) {
      clients.set(id, {
        refresh: null,
        access: null,
        grants: { authorization_code: 0, refresh_token: 0 },
      })
    }
    return clients.get(id)
  }
  const refusals = []

  const json = (res, status, value) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    res.end(JSON.stringify(value))
  }
  const refuse = (res, status, error, why) => {
    refusals.push(why)
    json(res, status, { error, error_description: why })
  }

  function authorize(res, url) {
    const q = url.searchParams
    if (q.get("response_type") !== "code")
      return refuse(res, 400, "unsupported_response_type", "response_type")
    if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
      return refuse(res, 400, "invalid_request", "authorize: no S256 challenge")
    }
    const code = token()
    codes.set(code, {
      client: q.get("client_id"),
      redirectUri: q.get("redirect_uri"),
      challenge: q.get("code_challenge"),
    })
    const back = new URL(q.get("redirect_uri"))
    back.searchParams.set("code", code)
    if (q.has("state")) back.searchParams.set("state", q.get("state"))
    res.writeHead(302, { location: back.href })
    res.end()
  }

  function issue(res, account, expiresIn) {
    account.access = token()
    account.refresh = token()
    json(res, 200, {
      access_token: account.access,
      token_type: "Bearer",
      expires_in: expiresIn,
      refresh_token: account.refresh,
      scope: "read",
    })
  }

  function tokenEndpoint(req, res, body) {
    const params = new URLSearchParams(body)
    let id = params.get("client_id")
    let secret = params.get("client_secret")
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")
    if (basic) {
      const decoded = Buffer.from(basic[1], "base64").toString("utf8")
      const colon = decoded.indexOf(":")
      id = decodeURIComponent(decoded.slice(0, colon))
      secret = decodeURIComponent(decoded.slice(colon + 1))
    }
    if (!id || secret !== SECRET) return refuse(res, 401, "invalid_client", `token: client ${id}`)
    const account = client(id)
    const grant = params.get("grant_type")
    if (grant === "authorization_code") {
      const code = codes.get(params.get("code") ?? "")
      codes.delete(params.get("code") ?? "")
      if (!code || code.client !== id || code.redirectUri !== params.get("redirect_uri")) {
        return refuse(res, 400, "invalid_grant", "token: unknown code or redirect_uri")
      }
      if (s256(params.get("code_verifier") ?? "") !== code.challenge) {
        return refuse(res, 400, "invalid_grant", "token: the PKCE verifier does not match")
      }
      account.grants.authorization_code++
      // Due at once (within the provider's refresh margin): the next session read refreshes.
      return issue(res, account, 60)
    }
    if (grant === "refresh_token") {
      if (!account.refresh || params.get("refresh_token") !== account.refresh) {
        return refuse(res, 400, "invalid_grant", "token: refresh token spent or unknown")
      }
      account.grants.refresh_token++
      return issue(res, account, 3600)
    }
    return refuse(res, 400, "unsupported_grant_type", `token: grant_type ${grant}`)
  }

  function user(req, res) {
    const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
    const known = [...clients.values()].some((account) => account.access === presented)
    if (!presented || !known) return refuse(res, 401, "invalid_token", "api: access token")
    json(res, 200, { id: 7, name: "Grace", email: "grace@example.com" })
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1")
    const chunks = []
    req.on("data", (chunk) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      if (url.pathname === "/authorize") return authorize(res, url)
      if (url.pathname === "/token" && req.method === "POST") return tokenEndpoint(req, res, body)
      if (url.pathname === "/user") return user(req, res)
      if (url.pathname === "/grants")
        return json(res, 200, client(url.searchParams.get("client")).grants)
      refuse(res, 404, "not_found", `${req.method} ${url.pathname}`)
    })
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    refusals,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
