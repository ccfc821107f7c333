// Helpers around the core: direct calls to Auth, the provider list, and settings the app shares.
import {
  Auth,
  createActionURL,
  isAuthAction,
  raw,
  setEnvDefaults,
  skipCSRFCheck,
  type AuthConfig,
} from "@auth/core"
import type {
  AuthAction,
  Authenticator,
  Awaitable,
  CookiesOptions,
  DefaultUser,
  ErrorPageParam,
  PagesOptions,
  PublicProvider,
  ResponseInternal,
  SignInPageErrorParam,
  Theme,
  TokenSet,
} from "@auth/core/types"
import type { DefaultJWT, JWTOptions } from "@auth/core/jwt"
import type {
  AccountCallback,
  CommonProviderOptions,
  OAuth2Config,
  OAuthChecks,
  OAuthProviderButtonStyles,
  OIDCUserConfig,
  ProfileCallback,
  ProviderId,
  ProviderType,
} from "@auth/core/providers"
import type { CredentialInput } from "@auth/core/providers/credentials"
import type { NodemailerConfig } from "@auth/core/providers/nodemailer"
import { DEFAULT_WEBAUTHN_TIMEOUT, type RelayingParty } from "@auth/core/providers/webauthn"
import { AuthError, CredentialsSignin } from "@auth/sveltekit"
import type { Adapter, AdapterSession, AdapterUser } from "@auth/sveltekit/adapters"

export const theme: Theme = { colorScheme: "auto", brandColor: "#0a7", logo: "/logo.svg" }
export const pages: Partial<PagesOptions> = { newUser: "/welcome" }
export const cookies: Partial<CookiesOptions> = {}
export const errorParams: ErrorPageParam[] = ["Configuration", "AccessDenied", "Verification"]
export const signInErrors: SignInPageErrorParam[] = ["CredentialsSignin", "OAuthAccountNotLinked"]
export const checks: OAuthChecks[] = ["pkce", "state", "nonce"]
export const noChecks: OAuthChecks[] = ["none"]
export const buttonStyle: OAuthProviderButtonStyles = { bg: "#24292f", text: "#fff", logo: "" }
export const passkeyTimeout: number = DEFAULT_WEBAUTHN_TIMEOUT
export const relyingParty: Partial<RelayingParty> = { name: "Compat app" }
export const jwtOptions: Partial<JWTOptions> = { maxAge: 60 * 60 }
export const pinInput: CredentialInput = { label: "PIN", type: "password" }
export const knownTypes: ProviderType[] = ["oauth", "oidc", "email", "credentials", "webauthn"]
export const favourite: ProviderId = "github"

/** A provider's own settings, typed as Auth.js types them. */
export const common: Pick<CommonProviderOptions, "id" | "name"> = { id: "x", name: "X" }

/** A userinfo-less OAuth 2.0 provider whose account() keeps only some token fields. */
export const plainOAuth: OAuth2Config<{ sub: string; name: string }> = {
  id: "plain",
  name: "Plain",
  type: "oauth",
  clientId: "plain",
  authorization: "https://plain.example/authorize",
  token: { url: "https://plain.example/token" },
  userinfo: {
    url: "https://plain.example/me",
    async request({ tokens }: { tokens: TokenSet }) {
      return { sub: "someone", name: String(tokens.access_token) }
    },
  },
  account: ((tokens) => ({
    access_token: tokens.access_token,
    expires_at: tokens.expires_at,
  })) satisfies AccountCallback,
  profile: ((profile) => ({ id: profile.sub, name: profile.name })) satisfies ProfileCallback<{
    sub: string
    name: string
  }>,
}

export const oidcOptions: OIDCUserConfig<Record<string, unknown>> = {
  clientId: "id",
  clientSecret: "secret",
  issuer: "https://issuer.example",
}

export function mailerId(config: NodemailerConfig): string {
  return config.id
}

export function isUser(user: AdapterUser | DefaultUser): user is AdapterUser {
  return "emailVerified" in user
}

export function sessionLifetime(session: AdapterSession): number {
  return session.expires.getTime() - Date.now()
}

export function tokenAge(token: DefaultJWT & { iat?: number }): number | undefined {
  return token.iat === undefined ? undefined : Math.floor(Date.now() / 1000) - token.iat
}

export function describePasskey(authenticator: Authenticator): string {
  return `${authenticator.credentialDeviceType} (${authenticator.counter})`
}

export function hasMethod(adapter: Adapter, name: keyof Adapter): boolean {
  return typeof adapter[name] === "function"
}

/** The configured providers, as `GET /auth/providers` lists them, without an HTTP round trip. */
export async function listProviders(
  config: AuthConfig,
  origin: string,
): Promise<Record<string, PublicProvider>> {
  const env: Record<string, string | undefined> = { AUTH_URL: `${origin}/auth` }
  setEnvDefaults(env, config)
  const action: AuthAction = "providers"
  if (!isAuthAction(action)) throw new Error("not an action")
  const url = createActionURL(action, "http:", new Headers({ host: new URL(origin).host }), env, {
    basePath: "/auth",
    logger: { error: (error) => console.error(error) },
  })
  const response: ResponseInternal = await Auth(new Request(url), { ...config, raw })
  if (!response.body || typeof response.body !== "object") return {}
  return response.body as Record<string, PublicProvider>
}

/** A config for framework code that checks CSRF itself. */
export function withoutCSRF(config: AuthConfig): AuthConfig {
  return { ...config, skipCSRFCheck }
}

export function later<T>(value: T): Awaitable<T> {
  return Promise.resolve(value)
}

/** How the app reports an Auth.js error it caught. */
export function report(error: unknown): string {
  if (error instanceof CredentialsSignin) return `${error.type}:${error.code}`
  if (error instanceof AuthError) return `${error.type}${error.cause?.err ? " (caused)" : ""}`
  return "unknown"
}
