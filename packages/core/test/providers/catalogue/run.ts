/**
 * One whole sign-in with a built-in provider, through `Auth()`, against a local server that
 * speaks the provider's protocol: the configurable OAuth 2.0 server for plain OAuth providers,
 * a real OpenID Provider (oidc-provider) mounted at the provider's issuer path, with its claims,
 * for OpenID Connect ones. The client id and secret come from `AUTH_<ID>_ID` and
 * `AUTH_<ID>_SECRET`, as a deployment sets them. The cases are in this folder, one file per
 * group of providers; `catalogue-flow.test.ts` runs them all, and the compatibility check runs
 * the same cases to compare each `providerAccountId` with Auth.js's.
 */
import { setEnvDefaults } from "../../../src/config/env.js"
import { customFetch } from "../../../src/markers.js"
import type { OAuthConfig } from "../../../src/providers/index.js"
import type { AuthConfig, Profile, TokenSet } from "../../../src/types.js"
import { memoryAdapter, type MemoryAdapter } from "../../helpers/memory-adapter.js"
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type OAuthServer,
  type ServerSpec,
} from "../../helpers/oauth-server.js"
import {
  CLIENTS,
  discoveryOf,
  loginAnswer,
  routedFetch,
  startOP,
  type OP,
  type OPOptions,
  type Route,
} from "../../helpers/oidc-provider.js"
import { Browser, testConfig } from "../../helpers/request.js"

/** What a sign-in must end with. */
export interface Expected {
  /** The `Account` row's `providerAccountId`: the one Auth.js stores for the same user. */
  providerAccountId: string
  name: string | null
  email: string | null
  image: string | null
}

interface CaseBase {
  /** The provider's id. */
  id: string
  /** The module's name, when it is not the id (`ory-hydra`, whose provider is `hydra`). */
  module?: string
  factory: (options?: any) => OAuthConfig<any>
  /** Where the provider's documentation was read, and when (YYYY-MM-DD). */
  docs: { url: string; read: string }
  /** One line: what the local run proves beyond the standard flow (a quirk, a header). */
  verifies: string
  expect: Expected
}

/** A plain OAuth 2.0 provider, against the configurable server. */
export interface OAuthCase extends CaseBase {
  kind: "oauth"
  /** Options the deployment passes (an instance's URL…), besides the client. */
  options?: Record<string, unknown>
  /** More variables the deployment sets (`AUTH_<ID>_ISSUER`…). */
  env?: Record<string, string>
  server: ServerSpec
}

/** An OpenID Connect provider, against oidc-provider with the provider's issuer and claims. */
export interface OIDCCase extends CaseBase {
  kind: "oidc"
  /**
   * The OpenID Provider: `path` mounts it at the provider's issuer path on 127.0.0.1 (a tenant,
   * a realm, a user pool); `issuer` announces a fixed real issuer (`https://access.line.me`),
   * whose discovery document is then routed to the local provider; `claims` are added to the
   * user's (alice's), as the provider releases them.
   */
  op: Pick<OPOptions, "path" | "issuer" | "configuration"> & { claims?: Record<string, unknown> }
  /** The client, by its token endpoint authentication method. @default "basic" */
  client?: "basic" | "post"
  /** Options the deployment passes, knowing the local provider. */
  options?: (op: OP) => Record<string, unknown>
  /** Variables the deployment sets (`AUTH_<ID>_ISSUER`…), knowing the local provider. */
  env?: (op: OP) => Record<string, string>
}

export type CatalogueCase = OAuthCase | OIDCCase

/** The name of a provider's variables: `AUTH_<ID>_…`, `-` as `_`. */
export function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}`
}

/** What a sign-in produced. */
export interface Outcome {
  /** The session's user, as `/auth/session` answers it. */
  user: Record<string, unknown> | undefined
  /** The provider's `Account` rows. */
  accounts: ReturnType<MemoryAdapter["accounts"]["get"]>[]
  /** What the provider's `profile` callback was given. */
  profile: { profile: Profile; tokens: TokenSet } | undefined
  /** The authorization request the app redirected to. */
  authorization: URL
  /** Where the callback sent the browser. */
  location: string | null
}

/** The OpenID Providers started for the OIDC cases, by case id. */
const ops = new Map<string, OP>()

/** Starts what a case needs; call once per case before `signIn`. */
export async function prepare(c: CatalogueCase, server: OAuthServer): Promise<void> {
  if (c.kind === "oauth") {
    server.register(c.id, c.server)
    return
  }
  const { claims, ...op } = c.op
  ops.set(
    c.id,
    await startOP({ ...op, providerIds: [c.id], claims: claims ? { alice: claims } : undefined }),
  )
}

export async function stopAll(): Promise<void> {
  await Promise.all([...ops.values()].map((op) => op.stop()))
  ops.clear()
}

/** Alice signs in with the case's provider; returns what the app stored and answered. */
export async function signIn(c: CatalogueCase, server: OAuthServer): Promise<Outcome> {
  const op = c.kind === "oidc" ? ops.get(c.id) : undefined
  if (c.kind === "oidc" && !op) throw new Error(`prepare(${c.id}) first`)
  const routes: Route[] = op?.issuer !== op?.base && op ? [discoveryOf(op.issuer, op)] : []
  const fetchFn = c.kind === "oauth" ? server.fetch : routedFetch(...routes)
  const client =
    c.kind === "oauth"
      ? { id: CLIENT_ID, secret: CLIENT_SECRET }
      : {
          id: CLIENTS[c.client ?? "basic"].clientId,
          secret: CLIENTS[c.client ?? "basic"].clientSecret,
        }
  const options = c.kind === "oauth" ? (c.options ?? {}) : (c.options?.(op!) ?? {})
  let seen: Outcome["profile"]
  const provider = () => {
    const built = c.factory({ ...options, [customFetch]: fetchFn })
    const original = built.profile
    if (original) {
      built.profile = (profile: Profile, tokens: TokenSet) => {
        seen = { profile, tokens }
        return original(profile, tokens)
      }
    }
    return built
  }
  const adapter = memoryAdapter()
  const config: AuthConfig = testConfig({
    providers: [provider],
    adapter,
    session: { strategy: "jwt" },
    logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
  })
  const errors: Error[] = []
  const prefix = envPrefix(c.id)
  setEnvDefaults(
    {
      [`${prefix}_ID`]: client.id,
      [`${prefix}_SECRET`]: client.secret,
      ...(c.kind === "oauth" ? c.env : c.env?.(op!)),
    },
    config,
  )
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch(`/auth/signin/${c.id}`, {
    form: { csrfToken, callbackUrl: "/dashboard" },
  })
  const authorization = new URL(start.headers.get("location") ?? "about:blank")
  if (start.status !== 302 || authorization.pathname.includes("/auth/error")) {
    throw new Error(
      `${c.id}: the sign-in did not start: ${start.status} ${authorization.href} ${errors.map(String).join("; ")}`,
    )
  }
  const back =
    c.kind === "oauth"
      ? { url: server.authorize(c.id, authorization.href) }
      : await loginAnswer(
          browser,
          routes.length ? localURL(authorization, op!) : authorization.href,
        )
  let url = new URL(back.url)
  if (back.form) {
    // response_mode=form_post: the provider's page POSTs the answer from its own site, so the
    // app's SameSite=Lax cookies stay behind; the app redirects to itself to read them.
    const posted = await browser.fetch(url.pathname, {
      method: "POST",
      headers: { cookie: "" },
      form: Object.fromEntries(back.form),
    })
    if (posted.status !== 303) throw new Error(`${c.id}: the form_post answered ${posted.status}`)
    url = new URL(posted.headers.get("location") ?? "about:blank")
  }
  const callback = await browser.fetch(url.pathname + url.search)
  const location = callback.headers.get("location")
  if (errors.length || location?.includes("/auth/error")) {
    throw new Error(
      `${c.id}: the callback failed: ${location} ${errors.map((e) => `${e.message} ${(e.cause as { err?: Error })?.err?.message ?? ""}`).join("; ")} ${server.refusals.join("; ")}`,
    )
  }
  const session = await browser.session()
  return {
    user: session?.user,
    accounts: [...adapter.accounts.values()].filter((a) => a.provider === c.id),
    profile: seen,
    authorization,
    location,
  }
}

/** An authorization URL under a routed issuer, at the local provider. */
function localURL(authorization: URL, op: OP): string {
  const issuer = op.issuer.replace(/\/$/, "")
  return authorization.href.startsWith(issuer)
    ? op.base + authorization.href.slice(issuer.length)
    : authorization.href
}
