/**
 * The apps of the test, one configuration per session strategy, written once for either version
 * of Latch: an app upgrading changes its package versions, not its configuration.
 *
 * - `database`: database sessions, GitHub, email links and passkeys (every row the adapter stores).
 * - `jwt`: JWT sessions with the adapter (users and accounts in the database, the session in the
 *   cookie), GitHub.
 * - `stateless`: JWT sessions without a database, a credentials provider.
 */
import type { OAuthServer } from "../../../packages/core/test/helpers/oauth-server.js"
import { CLIENT_ID, CLIENT_SECRET } from "../../../packages/core/test/helpers/oauth-server.js"
import type { Latch } from "./latch.js"
import type { Server } from "./browser.js"

/** One secret for both versions: an upgrade keeps the app's `AUTH_SECRET`. */
export const SECRET = "upgrade-test-secret-0123456789-abcdefghijklmnop"

/**
 * The users the credentials provider of the stateless app accepts. Dan's picture URL is long
 * enough that his session cookie is split in chunks (`authjs.session-token.0`, `.1`, …).
 */
export const MEMBERS: Record<string, { id: string; name: string; email: string; image?: string }> =
  {
    carol: { id: "member-carol", name: "Carol", email: "carol@example.org" },
    dan: {
      id: "member-dan",
      name: "Dan",
      email: "dan@example.org",
      image: `https://img.example/dan?${"d".repeat(5000)}`,
    },
  }

/** GitHub users, by login, as the local GitHub answers for them. */
export const GITHUB_USERS = {
  alice: { id: 1001, login: "alice", name: "Alice Liddell", email: "alice@example.com" },
  erin: { id: 1002, login: "erin", name: "Erin", email: "erin@example.com" },
  frank: { id: 1003, login: "frank", name: "Frank", email: "frank@example.com" },
  ivan: { id: 1004, login: "ivan", name: "Ivan", email: "ivan@example.com" },
} as const
export type GitHubLogin = keyof typeof GITHUB_USERS

/** The mails the email provider sent: the sign-in link to each address, newest last. */
export type Outbox = { to: string; url: string }[]

const silent = { error: () => {}, warn: () => {}, debug: () => {} }

/**
 * The local GitHub: the documented endpoints (authorization, token with HTTP Basic, `GET /user`),
 * answering for whoever `github.next` names.
 */
export function registerGitHub(server: OAuthServer): { next: GitHubLogin } {
  const who = { next: "alice" as GitHubLogin }
  server.register("github", {
    authorization: "https://github.com/login/oauth/authorize",
    pkce: true,
    token: {
      url: "https://github.com/login/oauth/access_token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        scope: "read:user,user:email",
        token_type: "bearer",
      }),
    },
    api: [
      {
        url: "https://api.github.com/user",
        get response() {
          const user = GITHUB_USERS[who.next]
          return {
            ...user,
            node_id: `node-${user.id}`,
            avatar_url: `https://avatars.example/${user.id}`,
          }
        },
      },
      {
        url: "https://api.github.com/user/emails",
        get response() {
          const user = GITHUB_USERS[who.next]
          return [{ email: user.email, primary: true, verified: true, visibility: "public" }]
        },
      },
    ],
  })
  return who
}

function github(latch: Latch, server: OAuthServer) {
  return latch.GitHub({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    [latch.customFetch]: server.fetch,
  })
}

export interface Apps {
  database: Server
  jwt: Server
  stateless: Server
}

/** The three apps on `latch`, over the database `client`. */
export function apps(
  latch: Latch,
  { client, oauth, outbox }: { client: unknown; oauth: OAuthServer; outbox: Outbox },
): Apps {
  const adapter = latch.PostgresAdapter(client)
  const base = { secret: SECRET, trustHost: true, logger: silent }
  return {
    database: {
      auth: latch.Auth,
      config: {
        ...base,
        adapter,
        session: { strategy: "database" },
        experimental: { enableWebAuthn: true },
        providers: [
          github(latch, oauth),
          latch.Email({
            sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => {
              outbox.push({ to: identifier, url })
            },
          }),
          latch.Passkey({ userVerification: "preferred" }),
        ],
      },
    },
    jwt: {
      auth: latch.Auth,
      config: {
        ...base,
        adapter,
        session: { strategy: "jwt" },
        providers: [github(latch, oauth)],
      },
    },
    stateless: {
      auth: latch.Auth,
      config: {
        ...base,
        session: { strategy: "jwt" },
        providers: [
          latch.Credentials({
            credentials: { username: {}, password: { type: "password" } },
            authorize: ({ username = "", password }: Record<string, string | undefined>) => {
              const member = MEMBERS[username]
              return member && password === `${username}-password` ? member : null
            },
          }),
        ],
      },
    },
  }
}
