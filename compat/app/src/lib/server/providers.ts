// The app's providers, written out as Auth.js documents them.
import type { OAuthConfig, OIDCConfig, Provider } from "@auth/core/providers"
import type { Profile } from "@auth/core/types"
import { customFetch } from "@auth/sveltekit"
import GitHub, { type GitHubProfile } from "@auth/sveltekit/providers/github"
import GitLab from "@auth/core/providers/gitlab"
import Credentials from "@auth/sveltekit/providers/credentials"
import Nodemailer from "@auth/sveltekit/providers/nodemailer"
import Passkey from "@auth/core/providers/passkey"
import { AccountLocked, InvalidLoginError } from "$lib/errors"

const users = [
  { id: "1", username: "alice", password: "wonderland", name: "Alice Liddell", role: "admin" },
  { id: "2", username: "bob", password: "canwefixit", name: "Bob", role: "user" },
]

export interface ProviderEnv {
  OIDC_ISSUER?: string
  OIDC_CLIENT_ID?: string
  OIDC_CLIENT_SECRET?: string
  SMTP_PORT?: string
}

/** The generic OpenID Connect provider: the local OpenID Provider of the tests. */
export function localOP(env: ProviderEnv): OIDCConfig<Profile> {
  return {
    id: "oidc",
    name: "Local OP",
    type: "oidc",
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    // Every request to the provider goes through the app's own fetch.
    [customFetch]: (...args: Parameters<typeof fetch>) => fetch(...args),
  }
}

/** A plain OAuth 2.0 provider with explicit endpoints (configured, not signed in to). */
export const acme: OAuthConfig<{ id: number; name: string; email: string | null }> = {
  id: "acme",
  name: "Acme",
  type: "oauth",
  clientId: "acme-client",
  clientSecret: "acme-secret",
  authorization: { url: "https://acme.example/oauth/authorize", params: { scope: "profile" } },
  token: "https://acme.example/oauth/token",
  userinfo: "https://acme.example/api/me",
  checks: ["pkce", "state"],
  style: { bg: "#000", text: "#fff" },
  profile: (profile) => ({ id: String(profile.id), name: profile.name, email: profile.email }),
}

export function providers(env: ProviderEnv): Provider[] {
  return [
    GitHub({
      // The defaults (AUTH_GITHUB_ID, AUTH_GITHUB_SECRET) apply; the profile keeps the login.
      profile(profile: GitHubProfile) {
        return { id: String(profile.id), name: profile.name ?? profile.login, email: profile.email }
      },
    }),
    Credentials({
      credentials: {
        username: { label: "Username" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        const username = String(credentials.username ?? "alice")
        const user = users.find((u) => u.username === username)
        if (username === "mallory") throw new AccountLocked("mallory is locked")
        if (!user || user.password !== credentials.password) throw new InvalidLoginError()
        return { id: user.id, name: user.name, email: `${user.username}@example.com` }
      },
    }),
    localOP(env),
    Nodemailer({
      server: `smtp://127.0.0.1:${env.SMTP_PORT ?? 2525}`,
      from: "Compat App <no-reply@example.com>",
    }),
    Passkey,
  ]
}

/** Providers configured but not offered (their configuration must type-check). */
export const otherProviders: Provider[] = [
  acme,
  GitLab({ clientId: "gitlab", clientSecret: "gitlab-secret" }),
]
