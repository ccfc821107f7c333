/**
 * Sign in with Kakao.
 *
 * @module providers/kakao
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/** A time, as Kakao writes it (RFC 3339, UTC: `2022-04-11T01:45:28Z`). */
export type DateTime = string
export type Gender = "female" | "male"
/** The calendar of `birthday`. */
export type Birthday = "SOLAR" | "LUNAR"
export type AgeRange =
  | "1-9"
  | "10-14"
  | "15-19"
  | "20-29"
  | "30-39"
  | "40-49"
  | "50-59"
  | "60-69"
  | "70-79"
  | "80-89"
  | "90-"

/**
 * The user, as `GET /v2/user/me` returns it. What `kakao_account` holds depends on the consent
 * items the user agreed to; each comes with a `*_needs_agreement` flag.
 *
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info
 */
export interface KakaoProfile {
  /** The user's service user id (a number). */
  id: number
  has_signed_up?: boolean
  connected_at?: DateTime
  synched_at?: DateTime
  properties?: {
    nickname?: string
    profile_image?: string
    thumbnail_image?: string
    [property: string]: unknown
  }
  kakao_account?: {
    profile_needs_agreement?: boolean
    profile_nickname_needs_agreement?: boolean
    profile_image_needs_agreement?: boolean
    profile?: {
      nickname?: string
      thumbnail_image_url?: string
      profile_image_url?: string
      is_default_image?: boolean
      is_default_nickname?: boolean
    }
    name_needs_agreement?: boolean
    name?: string
    email_needs_agreement?: boolean
    is_email_valid?: boolean
    is_email_verified?: boolean
    email?: string
    age_range_needs_agreement?: boolean
    age_range?: AgeRange
    birthyear_needs_agreement?: boolean
    birthyear?: string
    birthday_needs_agreement?: boolean
    /** `MMDD`. */
    birthday?: string
    birthday_type?: Birthday
    gender_needs_agreement?: boolean
    gender?: Gender
    phone_number_needs_agreement?: boolean
    phone_number?: string
    ci_needs_agreement?: boolean
    ci?: string
    ci_authenticated_at?: DateTime
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds Kakao sign-in.
 *
 * In Kakao Developers, create an app, enable Kakao Login with the redirect URI
 * `https://example.com/auth/callback/kakao`, choose the consent items (nickname, profile image,
 * email…), turn on the client secret for the REST API key, then set:
 *
 * - `AUTH_KAKAO_ID`: the REST API key
 * - `AUTH_KAKAO_SECRET`: the client secret
 *
 * No scope is sent: the consent items configured for the app apply. The token request carries
 * the key and secret in its body. The profile is `GET https://kapi.kakao.com/v2/user/me`; the
 * email address is there only when the user agreed to share it.
 *
 * @example
 * ```ts
 * import Kakao from "@latch/core/providers/kakao"
 *
 * export const config = { providers: [Kakao] }
 * ```
 */
const Kakao = oauthProvider<KakaoProfile>({
  id: "kakao",
  name: "Kakao",
  authorization: "https://kauth.kakao.com/oauth/authorize",
  token: "https://kauth.kakao.com/oauth/token",
  userinfo: "https://kapi.kakao.com/v2/user/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.kakao_account?.profile?.nickname ?? profile.properties?.nickname ?? null,
    email: profile.kakao_account?.email ?? null,
    image:
      profile.kakao_account?.profile?.profile_image_url ??
      profile.properties?.profile_image ??
      null,
  }),
  style: { brandColor: "#fee500", text: "#191919" },
})

export default Kakao
