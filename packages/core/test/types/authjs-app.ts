/**
 * A configuration written as an `@auth/core` 0.41.3 app writes it, with only the package name
 * changed: the callbacks, errors, tokens, adapters and providers in the shapes Auth.js types
 * them. It must type-check with 0 errors (`pnpm run typecheck`, after `pnpm run build`), and each
 * `@ts-expect-error` marks a use that must stay an error, so that the file cannot pass by types
 * turning into `any`.
 */
import { Auth, raw, type AuthConfig } from "@latch/core"
import { isDate, type Adapter, type AdapterAccountType } from "@latch/core/adapters"
import { AuthError, CredentialsSignin } from "@latch/core/errors"
import { decode, getToken, type JWT } from "@latch/core/jwt"
import type {
  OAuthChecks,
  OAuthConfig,
  OAuthUserConfig,
  OIDCConfig,
  Provider,
} from "@latch/core/providers"
import Credentials from "@latch/core/providers/credentials"
import Email from "@latch/core/providers/email"
import GitHub from "@latch/core/providers/github"
import GitLab from "@latch/core/providers/gitlab"
import Google from "@latch/core/providers/google"
import Nodemailer from "@latch/core/providers/nodemailer"
import Passkey from "@latch/core/providers/passkey"
import type { DefaultSession, ResponseInternal, Session, User } from "@latch/core/types"

declare module "@latch/core/types" {
  interface Session {
    user: { id: string; role: "admin" | "user" } & DefaultSession["user"]
    // As Auth.js's refresh token guide augments it.
    error?: "RefreshTokenError"
  }
  interface User {
    role?: "admin" | "user"
  }
}

declare module "@latch/core/jwt" {
  interface JWT {
    role?: "admin" | "user"
    accessToken?: string
  }
}

/**
 * An error type of the app's own. (`override` because this repository type-checks with
 * `noImplicitOverride`: Latch's `AuthError` declares its static `type`, `@auth/core`'s does not.)
 */
export class RateLimited extends AuthError {
  static override type = "RateLimited"
}

/** A credentials refusal with a code of the app's own. */
export class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

declare function findUser(email: string, password: string): Promise<User | null>

/** A custom OAuth 2.0 provider in the Auth.js shape, with every widened option. */
export function Acme(options: OAuthUserConfig<{ uid: string; mail?: string }>): OAuthConfig<{
  uid: string
  mail?: string
}> {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth",
    checks: ["none"],
    authorization: { url: "https://acme.example/authorize", params: { scope: "profile" } },
    token: {
      url: "https://acme.example/token",
      // Auth.js leaves the context untyped: apps annotate it.
      async request({
        params,
        checks,
        provider,
      }: {
        params: Record<string, unknown>
        checks: { code_verifier?: string }
        provider: { id: string }
      }) {
        const response = await fetch(String(provider.id), {
          method: "POST",
          body: new URLSearchParams({ code: String(params.code), v: String(checks.code_verifier) }),
        })
        return { tokens: (await response.json()) as Record<string, string> }
      },
    },
    userinfo: {
      url: "https://acme.example/me",
      async request({ tokens }: { tokens: { access_token?: string } }) {
        return { uid: String(tokens.access_token) }
      },
    },
    account(tokens) {
      return { access_token: tokens.access_token, expires_at: tokens.expires_at }
    },
    profile(profile) {
      return { id: profile.uid, email: profile.mail ?? null }
    },
    style: { logo: "/acme.svg", bg: "#ffffff", text: "#000000", brandColor: "#ff0000" },
    options,
  }
}

/** A generic OpenID Connect provider as a plain object. */
export const corporate: OIDCConfig<Record<string, unknown>> = {
  id: "corporate",
  name: "Corporate",
  type: "oidc",
  issuer: "https://id.corporate.example",
  clientId: "id",
  clientSecret: "secret",
  checks: ["pkce", "state", "nonce"],
}

/** Check names cast to `OAuthChecks`, as Auth.js apps write them. */
export const namedChecks = ["pkce", "state", "nonce"] as OAuthChecks[]
export const noChecks: OAuthChecks[] = ["none"]

/** `OAuthConfig` takes either kind, as in Auth.js. */
export const either: OAuthConfig<any>[] = [corporate, Acme({})]

const adapter: Adapter = {
  async createUser(user) {
    return user
  },
  async linkAccount(account) {
    const type: AdapterAccountType = account.type
    void type
  },
  async getSessionAndUser() {
    return null
  },
}

export const providers: Provider[] = [
  GitHub,
  GitHub({ enterprise: { baseUrl: "https://github.example.com" } }),
  GitLab({ baseUrl: new URL("https://gitlab.example.com") }),
  Google({ authorization: { params: { prompt: "consent", access_type: "offline" } } }),
  Credentials({
    credentials: { email: { label: "Email", type: "email" }, password: { type: "password" } },
    async authorize(credentials) {
      const user = await findUser(String(credentials.email), String(credentials.password))
      if (!user) throw new InvalidLogin()
      return user
    },
  }),
  Nodemailer({ server: process.env.EMAIL_SERVER, from: "no-reply@example.com" }),
  Email({
    server: { host: "smtp.example.com", port: 587, auth: { user: "u", pass: "p" } },
    from: "no-reply@example.com",
  }),
  Passkey({}),
  // Auth.js's form: the options (with the site's URL), then the request.
  Passkey({
    getRelyingParty: (options, request) => ({
      id: options.url.hostname,
      name: request.url.hostname,
      origin: options.url.origin,
    }),
  }),
  Acme({ clientId: "id", clientSecret: "secret" }),
  corporate,
]

export const jwtConfig: AuthConfig = {
  providers,
  adapter,
  session: { strategy: "jwt" },
  callbacks: {
    async signIn({ user, account, email }) {
      if (email?.verificationRequest) return true
      if (account?.provider === "github") return user.email?.endsWith("@example.com") ?? false
      return "/welcome"
    },
    async jwt({ token, user, account, trigger, session }) {
      if (user) token.role = user.role ?? "user"
      if (account) token.accessToken = account.access_token
      if (trigger === "update" && session?.name) token.name = session.name
      return token
    },
    // The parameters of the jwt strategy are defined: no `token?.` needed.
    async session({ session, token }) {
      const claims: JWT = token
      session.user.id = claims.sub as string
      session.user.role = token.role ?? "user"
      return session
    },
    redirect({ url, baseUrl }) {
      return url.startsWith(baseUrl) ? url : baseUrl
    },
  },
  events: {
    async signIn({ user, account, isNewUser }) {
      void [user.id, account?.provider, isNewUser]
    },
    async signOut(message) {
      if ("token" in message) void message.token?.sub
      else void message.session
    },
  },
}

export const databaseConfig: AuthConfig = {
  providers,
  adapter,
  session: { strategy: "database" },
  callbacks: {
    // The parameters of the database strategy are defined: `user` is the stored user.
    session({ session, user, trigger, newSession }) {
      session.user.id = user.id
      session.user.role = user.role ?? "user"
      if (trigger === "update") void newSession
      return session
    },
  },
}

export async function handle(request: Request): Promise<Response> {
  const internal: ResponseInternal = await Auth(request, { ...jwtConfig, raw })
  void internal.cookies
  const response: Response = await Auth(request, jwtConfig)
  return response
}

export async function tokens(request: Request): Promise<string | undefined> {
  const claims = await getToken({ req: request, secret: "s", logger: console })
  const role: "admin" | "user" | undefined = claims?.role
  void role
  const encrypted: string = await getToken({ req: request, secret: "s", raw: true })
  const custom = await decode<{ scope: string }>({ token: encrypted, secret: "s", salt: "x" })
  return custom?.scope
}

export function errors(error: unknown): string | undefined {
  if (error instanceof AuthError) {
    const underlying: Error | undefined = error.cause?.err
    return `${error.type}: ${underlying?.message ?? ""}`
  }
  if (isDate(error)) return new Date(error).toISOString()
  return undefined
}

// What must stay an error:
export async function mistakes(request: Request, session: Session) {
  // @ts-expect-error getToken without `raw` gives the claims (or null), not a string
  const encrypted: string = await getToken({ req: request, secret: "s" })
  // @ts-expect-error a check that does not exist
  const bad: OAuthConfig<any> = { id: "x", name: "X", type: "oauth", checks: ["maybe"] }
  // @ts-expect-error the session's user id is a string (augmented above)
  session.user.id = 1
  // @ts-expect-error `type` is a provider type
  const wrongType: OAuthConfig<any> = { id: "x", name: "X", type: "saml" }
  const jwtOnly: AuthConfig["callbacks"] = {
    session({ session, token }) {
      // @ts-expect-error `sub` may be absent from a token
      session.user.id = token.sub
      return session
    },
  }
  return [encrypted, bad, wrongType, jwtOnly]
}
