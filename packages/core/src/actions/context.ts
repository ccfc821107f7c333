/** Everything an action needs, built once per request. */
import type { ResolvedConfig } from "../config/resolved.js"
import type { ResolvedCookies } from "../cookies/defaults.js"
import type { CookieJar } from "../cookies/jar.js"
import type { LoggerInstance } from "../lib/logger.js"
import type { AuthRequest } from "../request/parse.js"
import type { SiteOrigin } from "../request/host.js"
import { clientOf } from "../security/client-address.js"

/** The per-request state shared by actions, flows and the session code. */
export interface ActionContext {
  config: ResolvedConfig
  request: AuthRequest
  /** The site's origin, e.g. `https://example.com`. */
  origin: string
  /** The origin plus the base path: where the actions live, e.g. `https://example.com/auth`. */
  actionBase: string
  /** Whether cookies are `Secure` and prefixed. */
  secure: boolean
  /** Names and options of every cookie. */
  cookieOptions: ResolvedCookies
  /** Incoming and outgoing cookies. */
  cookies: CookieJar
  logger: LoggerInstance
  /** `X-Auth-Return-Redirect: 1`: answer `{ url }` instead of redirecting. */
  returnRedirect: boolean
  /** The integration already established that this request is not cross-site. */
  csrfVerified: boolean
  /**
   * The client's IP address as the integration saw it, when known: what records the device
   * (session rows). Never a rate limit's key: see `client`.
   */
  clientAddress: string | undefined
  /**
   * Who the client is for rate limits: `clientOf(clientAddress)`, an IPv4 address or an IPv6
   * address's /64, so that rotating addresses within one line gets no fresh counters. Every
   * per-client limit counts by this.
   */
  client: string | undefined
}

/** Builds the context of a parsed request. */
export function createContext(
  request: AuthRequest,
  config: ResolvedConfig,
  site: SiteOrigin,
  options: { csrfVerified?: boolean; clientAddress?: string } = {},
): ActionContext {
  const secure = config.useSecureCookies ?? site.secure
  const clientAddress = options.clientAddress || undefined
  return {
    config,
    request,
    origin: site.origin,
    actionBase: `${site.origin}${config.basePath}`,
    secure,
    cookieOptions: config.cookies(secure),
    cookies: request.cookies,
    logger: config.logger,
    returnRedirect: request.headers.get("x-auth-return-redirect") === "1",
    csrfVerified: options.csrfVerified === true,
    clientAddress,
    client: clientAddress === undefined ? undefined : clientOf(clientAddress),
  }
}
