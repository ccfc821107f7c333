/**
 * Who may sign in with Microsoft Entra ID, from a `tenantId` and an issuer: the Microsoft
 * identity platform's authority is `https://login.microsoftonline.com/{tenant}/v2.0`, where
 * `{tenant}` is a tenant ID (one directory), `organizations` (any work or school account),
 * `consumers` (personal accounts) or `common` (both).
 *
 * A v2.0 ID token's `iss` names the tenant the user signed in to by its ID (a GUID), never by a
 * domain name, and so does its `tid` claim: a tenant can only be enforced when it is named by
 * its ID.
 *
 * @see https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc
 * @see https://learn.microsoft.com/entra/identity-platform/id-token-claims-reference
 * @see https://learn.microsoft.com/entra/identity-platform/authentication-national-cloud
 */

/** The tenant every personal Microsoft account signs in to. */
export const CONSUMERS_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad"

/** The sign-in hosts of Microsoft's clouds, with the Microsoft Graph of each. */
const clouds: Record<string, string> = {
  "login.microsoftonline.com": "https://graph.microsoft.com",
  "login.microsoftonline.us": "https://graph.microsoft.us",
  "login.partner.microsoftonline.cn": "https://microsoftgraph.chinacloudapi.cn",
  "login.chinacloudapi.cn": "https://microsoftgraph.chinacloudapi.cn",
}

const GLOBAL = "https://login.microsoftonline.com"
const tenantGuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Who may sign in:
 * - `any`: every account of the `common` or `organizations` audience (no fixed issuer);
 * - `tenant`: the users of one tenant (`consumers` is the personal-accounts tenant);
 * - `issuer`: an issuer on another host (Azure AD B2C, a custom domain), enforced by its `iss`.
 */
export type Audience =
  | { kind: "any"; login: string; graph: string; tenant: "common" | "organizations" }
  | { kind: "tenant"; login: string; graph: string; tenant: string; consumers: boolean }
  | { kind: "issuer"; issuer: string }

/** The issuer of a tenant's v2.0 ID tokens. */
export function tenantIssuer(audience: Extract<Audience, { kind: "tenant" }>): string {
  return `${audience.login}/${audience.tenant}/v2.0`
}

const tenantHelp =
  'give the tenant ID (a GUID: "Directory (tenant) ID" in the Entra admin center), or "organizations", "consumers" or "common"'

/** A `tenantId` option, on a cloud's sign-in host → the audience, or what is wrong with it. */
function fromTenant(tenant: unknown, login: string): Audience | string {
  if (typeof tenant !== "string") return `tenantId must be a string: ${tenantHelp}`
  const name = tenant.trim().toLowerCase()
  const graph = clouds[new URL(login).host]!
  if (name === "common" || name === "organizations") {
    return { kind: "any", login, graph, tenant: name }
  }
  if (name === "consumers" || name === CONSUMERS_TENANT) {
    return { kind: "tenant", login, graph, tenant: CONSUMERS_TENANT, consumers: true }
  }
  if (tenantGuid.test(name)) return { kind: "tenant", login, graph, tenant: name, consumers: false }
  return `tenant "${tenant}" cannot be enforced: ID tokens name a tenant by its ID, so ${tenantHelp}`
}

/** An issuer → the audience, or what is wrong with it. */
function fromIssuer(issuer: string): Audience | string {
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    return `issuer ${issuer} is not a URL`
  }
  if (!(url.host in clouds)) return { kind: "issuer", issuer }
  const path = /^\/([^/]+)\/v2\.0\/?$/.exec(url.pathname)
  if (url.protocol !== "https:" || !path || url.search || url.hash) {
    return `issuer ${issuer} is not a Microsoft identity platform v2.0 issuer: use ${url.protocol === "https:" ? url.origin : GLOBAL}/<tenant ID>/v2.0`
  }
  return fromTenant(decodeURIComponent(path[1]!), url.origin)
}

function sameAudience(a: Audience, b: Audience): boolean {
  if (a.kind === "issuer" || b.kind === "issuer") return false
  return a.kind === b.kind && a.login === b.login && a.tenant === b.tenant
}

/**
 * The audience of a configuration: its issuer (option or `AUTH_MICROSOFT_ENTRA_ID_ISSUER`) and
 * `tenantId` must agree; neither means `common`. A string says what cannot be honoured.
 */
export function audienceOf(tenantId: unknown, issuer: string | undefined): Audience | string {
  const byIssuer = issuer === undefined ? undefined : fromIssuer(issuer)
  if (typeof byIssuer === "string") return byIssuer
  if (tenantId === undefined) return byIssuer ?? (fromTenant("common", GLOBAL) as Audience)
  if (byIssuer?.kind === "issuer") {
    return `tenantId "${String(tenantId)}" cannot be checked on the issuer ${issuer}, which is not a Microsoft sign-in host: give the issuer alone (its ID tokens' iss is checked)`
  }
  const byTenant = fromTenant(tenantId, byIssuer?.login ?? GLOBAL)
  if (typeof byTenant === "string" || byIssuer === undefined) return byTenant
  if (!sameAudience(byTenant, byIssuer)) {
    return `tenantId "${String(tenantId)}" and the issuer ${issuer} name different audiences: keep one of them`
  }
  return byIssuer
}
