// A local OpenID Provider for the demo (oidc-provider, the certified OpenID Connect server), on
// 127.0.0.1, so that "Sign in with Local OpenID Provider" works with nothing to register. Its
// users are the demo's alice and bob, and carol (the development login form takes any password).
import { createServer } from "node:http"
import Provider from "oidc-provider"

const host = process.env.OP_HOST ?? "127.0.0.1"
const port = Number(process.env.OP_PORT ?? 3001)
const issuer = `http://${host}:${port}`
// The demo's origin(s), comma-separated: the redirect URIs the client may use.
const appOrigins = (process.env.DEMO_ORIGIN ?? "http://localhost:3000").split(",")

const accounts = {
  alice: { name: "Alice Liddell", email: "alice@example.com", picture: null },
  bob: { name: "Bob Builder", email: "bob@example.com", picture: null },
  // Only at this provider (no password account): a user whose address no other sign-in holds.
  carol: { name: "Carol Danvers", email: "carol@example.com", picture: null },
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
    const account = accounts[id]
    if (!account) return undefined
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...account, email_verified: true }
      },
    }
  },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: [process.env.OP_COOKIE_KEY ?? "local-op-development-cookie-key"] },
})
// Demo users only: anything else typed in the development login form is refused.
provider.on("server_error", (_ctx, error) => console.error("[local-op]", error))

createServer(provider.callback()).listen(port, host, () => {
  console.log(`  Local OpenID Provider: ${issuer} (users: alice, bob, carol)`)
})
