// A local OpenID Provider for the demo (oidc-provider, the certified OpenID Connect server), on
// 127.0.0.1, so that "Sign in with Local OpenID Provider" works with nothing to register. Its
// users are the demo's alice and bob, and carol; its login page takes any password.
//
// Its login and consent pages are ours (below), not oidc-provider's development ones: those
// accepted any login, and an unknown one was stored in the provider's session cookie, so that
// every later sign-in in that browser failed with server_error until its cookies were cleared.
// Here an unknown login is asked again, and "Cancel" sends the user back to the app with
// error=access_denied, as a real provider does.
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer } from "node:http"

const host = process.env.OP_HOST ?? "127.0.0.1"
const port = Number(process.env.OP_PORT ?? 3001)
const issuer = `http://${host}:${port}`
// The demo's origin(s), comma-separated: the redirect URIs the client may use.
const appOrigins = (process.env.DEMO_ORIGIN ?? "http://localhost:3000").split(",")

// oidc-provider 9 prints "Unsupported runtime. Use Node.js v22.x LTS…" when it is loaded on
// Node.js 20. We keep version 9 there rather than pin version 8 (the last that asked for no
// more than Node 20: an older major line, and not the version the core package's tests run on
// Node 20 and 22 alike), and the workspace supports Node >= 20.19, where Node 22 is not always
// installed. So that one message is replaced by a line of ours saying what it means; every
// other warning of oidc-provider still shows.
const Provider = await withoutRuntimeWarning(() => import("oidc-provider"))
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.warn(
    `  Local OpenID Provider: running on Node.js ${process.versions.node}; oidc-provider ` +
      `asks for Node.js 22 or later, and Node 20 no longer gets security fixes: use Node 22 or 24.`,
  )
}

async function withoutRuntimeWarning(load) {
  const warn = console.warn
  console.warn = (...args) => {
    if (typeof args[0] === "string" && args[0].includes("WARNING: Unsupported runtime")) return
    warn(...args)
  }
  try {
    return (await load()).default
  } finally {
    console.warn = warn
  }
}

const accounts = {
  alice: { name: "Alice Liddell", email: "alice@example.com", picture: null },
  bob: { name: "Bob Builder", email: "bob@example.com", picture: null },
  // Only at this provider (no password account): a user whose address no other sign-in holds.
  carol: { name: "Carol Danvers", email: "carol@example.com", picture: null },
}
const logins = Object.keys(accounts)
const listOf = (word) => `${logins.slice(0, -1).join(", ")} ${word} ${logins.at(-1)}`

/** The provider's storage (interactions, sessions, grants, codes, tokens): in memory, with expiry;
 * a restart forgets it, which is all a local test provider needs. */
function memoryStore() {
  const entries = new Map()
  const byUid = new Map()
  const live = (key) => {
    const entry = entries.get(key)
    if (entry && entry.expires <= Date.now()) entries.delete(key)
    return entries.get(key)?.payload
  }
  return class MemoryAdapter {
    constructor(model) {
      this.model = model
    }
    key(id) {
      return `${this.model}:${id}`
    }
    async upsert(id, payload, expiresIn) {
      const expires = expiresIn ? Date.now() + expiresIn * 1000 : Infinity
      entries.set(this.key(id), { payload, expires })
      if (payload.uid) byUid.set(`${this.model}:${payload.uid}`, this.key(id))
    }
    async find(id) {
      return live(this.key(id))
    }
    async findByUid(uid) {
      const key = byUid.get(`${this.model}:${uid}`)
      return key ? live(key) : undefined
    }
    async findByUserCode() {
      return undefined
    }
    async consume(id) {
      const payload = live(this.key(id))
      if (payload) payload.consumed = Math.floor(Date.now() / 1000)
    }
    async destroy(id) {
      entries.delete(this.key(id))
    }
    async revokeByGrantId(grantId) {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key)
    }
  }
}

/** A signing key for ID tokens, new on every start (the app fetches the provider's keys). */
function signingKey() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return {
    ...privateKey.export({ format: "jwk" }),
    kid: randomBytes(8).toString("hex"),
    use: "sig",
  }
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.AUTH_LOCAL_OP_ID ?? "latch-demo",
      client_secret: process.env.AUTH_LOCAL_OP_SECRET ?? "latch-demo-local-op-secret",
      redirect_uris: appOrigins.map((origin) => `${origin}/auth/callback/local-op`),
      post_logout_redirect_uris: appOrigins.map((origin) => `${origin}/`),
    },
    // The built-in Cognito provider, pointed here by AUTH_COGNITO_ISSUER (the e2e tests): the
    // same users, through a provider module instead of a generic configuration.
    ...(process.env.AUTH_COGNITO_ID
      ? [
          {
            client_id: process.env.AUTH_COGNITO_ID,
            client_secret: process.env.AUTH_COGNITO_SECRET,
            redirect_uris: appOrigins.map((origin) => `${origin}/auth/callback/cognito`),
          },
        ]
      : []),
  ],
  claims: { openid: ["sub"], profile: ["name", "picture"], email: ["email", "email_verified"] },
  async findAccount(_ctx, id) {
    if (!Object.hasOwn(accounts, id)) return undefined
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...accounts[id], email_verified: true }
      },
    }
  },
  adapter: memoryStore(),
  jwks: { keys: [signingKey()] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
  // No browser calls the provider's endpoints from a page: no cross-origin requests allowed.
  clientBasedCORS: () => false,
  // Lifetimes, in seconds.
  ttl: {
    Interaction: 60 * 60,
    Session: 24 * 60 * 60,
    Grant: 24 * 60 * 60,
    AuthorizationCode: 60,
    AccessToken: 60 * 60,
    IdToken: 60 * 60,
  },
  cookies: { keys: [process.env.OP_COOKIE_KEY ?? "local-op-development-cookie-key"] },
  async renderError(ctx, { error, error_description }) {
    ctx.type = "html"
    ctx.body = layout(
      "Sign-in error",
      `<h1>Sign-in error</h1><p role="alert"><code>${escapeHtml(error)}</code>: ` +
        `${escapeHtml(error_description ?? "")}</p>` +
        `<p>Go back to the app and sign in again.</p>`,
    )
  },
})
// A fault of this server (not a refused request): logged for whoever runs the demo.
provider.on("server_error", (_ctx, error) => console.error("[local-op]", error))

function escapeHtml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  )
}

function layout(title, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · Local OpenID Provider</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 26rem; margin: 3rem auto; padding: 0 1rem; color: #222 }
  h1 { font-size: 1.4rem } label { display: block; margin: .75rem 0 .25rem }
  input { width: 100%; box-sizing: border-box; padding: .45rem; font: inherit }
  .actions { display: flex; gap: .75rem; margin-top: 1rem }
  button { font: inherit; padding: .45rem 1rem; cursor: pointer }
  [role=alert] { color: #a40000; background: #fff0f0; padding: .5rem .75rem; border-radius: 4px }
  .hint { color: #555; font-size: .9rem }
</style></head>
<body><p class="hint">Local OpenID Provider (for the Latch demo)</p>${body}</body></html>`
}

function send(res, status, title, body) {
  res.statusCode = status
  res.setHeader("content-type", "text/html; charset=utf-8")
  res.setHeader("cache-control", "no-store")
  res.end(layout(title, body))
}

async function formOf(req) {
  let text = ""
  for await (const chunk of req) {
    text += chunk
    if (text.length > 10_000) break
  }
  return new URLSearchParams(text)
}

/** The form that cancels the sign-in: back to the app with error=access_denied. */
function cancelForm(base) {
  return `<form method="post" action="${base}/abort"><button type="submit">Cancel</button></form>`
}

function loginPage(res, base, { login = "", unknown = false } = {}) {
  const alert = unknown
    ? `<p role="alert">There is no user “${escapeHtml(login)}” here. Sign in as ${listOf("or")}.</p>`
    : ""
  send(
    res,
    unknown ? 401 : 200,
    "Sign in",
    `<h1>Sign in</h1>${alert}
<p>This test provider has three users: <strong>${listOf("and")}</strong>. Any password works.</p>
<form method="post" action="${base}/login">
  <label for="login">Login</label>
  <input id="login" name="login" value="${escapeHtml(login)}" required autofocus autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password">
  <div class="actions"><button type="submit">Sign in</button></div>
</form>
<div class="actions">${cancelForm(base)}</div>`,
  )
}

function consentPage(res, base, client) {
  send(
    res,
    200,
    "Allow access",
    `<h1>Allow access</h1>
<p><strong>${escapeHtml(client)}</strong> asks for your name, picture and email address.</p>
<div class="actions">
  <form method="post" action="${base}/confirm"><button type="submit">Continue</button></form>
  ${cancelForm(base)}
</div>`,
  )
}

/** The login and consent pages of a sign-in in progress (`interactions.url` points here). */
async function interaction(req, res, uid, step) {
  let details
  try {
    details = await provider.interactionDetails(req, res)
  } catch {
    // No such sign-in in this browser (finished, expired, or the provider restarted).
    details = undefined
  }
  if (!details || details.uid !== uid) {
    return send(
      res,
      400,
      "Sign-in expired",
      `<h1>This sign-in has ended</h1><p role="alert">It expired or was already finished. ` +
        `Go back to the app and sign in again.</p>`,
    )
  }
  const base = `/interaction/${encodeURIComponent(uid)}`
  const { prompt, params, session, grantId } = details

  if (req.method === "GET") {
    // A reload after a form was answered (…/login): the page of the current step.
    if (step !== undefined) {
      res.writeHead(303, { location: base }).end()
      return
    }
    if (prompt.name === "login") return loginPage(res, base)
    return consentPage(res, base, params.client_id)
  }
  if (step === "login" && req.method === "POST" && prompt.name === "login") {
    const login = ((await formOf(req)).get("login") ?? "").trim().toLowerCase()
    // Only a known user finishes the login: an unknown one would end up in the provider's
    // session, and every later sign-in in this browser would fail.
    if (!Object.hasOwn(accounts, login)) return loginPage(res, base, { login, unknown: true })
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: login } },
      { mergeWithLastSubmission: false },
    )
  }
  if (step === "confirm" && req.method === "POST" && prompt.name === "consent") {
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
    const { missingOIDCScope, missingOIDCClaims } = prompt.details
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "))
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims)
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    )
  }
  if (step === "abort" && req.method === "POST") {
    return provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The user cancelled the sign-in" },
      { mergeWithLastSubmission: false },
    )
  }
  send(res, 404, "Not found", "<h1>Not found</h1>")
}

const callback = provider.callback()
createServer((req, res) => {
  const step = /^\/interaction\/([^/]+)(?:\/([a-z]+))?$/.exec(new URL(req.url, issuer).pathname)
  if (!step) return callback(req, res)
  interaction(req, res, decodeURIComponent(step[1]), step[2]).catch((error) => {
    console.error("[local-op]", error)
    if (!res.headersSent) send(res, 500, "Error", "<h1>Something went wrong</h1>")
    else res.end()
  })
}).listen(port, host, () => {
  console.log(`  Local OpenID Provider: ${issuer} (users: ${logins.join(", ")})`)
})
