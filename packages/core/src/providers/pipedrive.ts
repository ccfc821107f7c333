/**
 * Sign in with Pipedrive.
 *
 * @module providers/pipedrive
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The signed-in user, as `GET /api/v1/users/me` returns it.
 *
 * @see https://developers.pipedrive.com/docs/api/v1/Users#getCurrentUser
 */
export interface PipedriveProfile {
  success: boolean
  data: {
    /** The user's numeric id. */
    id: number
    name: string
    email: string
    default_currency?: string
    locale?: string
    lang?: number
    phone?: string | null
    activated?: boolean
    last_login?: string
    created?: string
    modified?: string | null
    has_created_company?: boolean
    access?: Array<Record<string, unknown>>
    active_flag?: boolean
    timezone_name?: string
    timezone_offset?: string
    role_id?: number
    icon_url?: string | null
    is_you?: boolean
    is_admin?: number
    company_id?: number
    company_name?: string
    company_domain?: string
    company_country?: string
    company_industry?: string
    language?: { language_code: string; country_code: string }
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds Pipedrive sign-in.
 *
 * Register an app in Pipedrive's Developer Hub with the callback URL
 * `https://example.com/auth/callback/pipedrive`, then set:
 *
 * - `AUTH_PIPEDRIVE_ID`: the client ID
 * - `AUTH_PIPEDRIVE_SECRET`: the client secret
 *
 * The token request authenticates with HTTP Basic. Its response names the company's API domain
 * (`api_domain`, a `https://<company>.pipedrive.com` URL), where the user's API calls go: the
 * profile is `GET <api_domain>/api/v1/users/me` (`https://api.pipedrive.com/v1/users/me` when the
 * response names none).
 *
 * @example
 * ```ts
 * import Pipedrive from "@latch/core/providers/pipedrive"
 *
 * export const config = { providers: [Pipedrive] }
 * ```
 */
const Pipedrive = oauthProvider<PipedriveProfile>({
  id: "pipedrive",
  name: "Pipedrive",
  authorization: "https://oauth.pipedrive.com/oauth/authorize",
  token: "https://oauth.pipedrive.com/oauth/token",
  userinfo: profileFrom({
    url: ({ api_domain: domain }) =>
      typeof domain === "string" && /^https:\/\/[\w-]+\.pipedrive\.com\/?$/.test(domain)
        ? `${domain.replace(/\/$/, "")}/api/v1/users/me`
        : "https://api.pipedrive.com/v1/users/me",
  }),
  profile: ({ data }) => ({
    id: String(data.id),
    name: data.name ?? null,
    email: data.email ?? null,
    image: data.icon_url ?? null,
  }),
  style: { brandColor: "#017737", text: "#ffffff" },
})

export default Pipedrive
