/**
 * Sign in with Naver.
 *
 * @module providers/naver
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The member, as `GET https://openapi.naver.com/v1/nid/me` returns it (inside `response`).
 * Which fields are there depends on what the app asks and the member agrees to share.
 *
 * @see https://developers.naver.com/docs/login/profile/profile.md
 */
export interface NaverProfile {
  /** `00` on success. */
  resultcode: string
  message: string
  response: {
    /** The member's id for this app. */
    id: string
    nickname?: string
    name?: string
    email?: string
    gender?: "F" | "M" | "U"
    /** An age range, e.g. `40-49`. */
    age?: string
    /** `MM-DD`. */
    birthday?: string
    profile_image?: string
    birthyear?: string
    mobile?: string
    [field: string]: unknown
  }
  [field: string]: unknown
}

/**
 * Adds Naver sign-in.
 *
 * Register an application for "네이버 로그인" at https://developers.naver.com/apps with the
 * callback URL `https://example.com/auth/callback/naver` and the member data to ask for, then
 * set:
 *
 * - `AUTH_NAVER_ID`: the Client ID
 * - `AUTH_NAVER_SECRET`: the Client Secret
 *
 * The token request carries the id and secret as parameters. The profile is
 * `GET https://openapi.naver.com/v1/nid/me`, the member in its `response` member.
 *
 * @example
 * ```ts
 * import Naver from "@latch/core/providers/naver"
 *
 * export const config = { providers: [Naver] }
 * ```
 */
const Naver = oauthProvider<NaverProfile>({
  id: "naver",
  name: "Naver",
  authorization: "https://nid.naver.com/oauth2.0/authorize",
  token: "https://nid.naver.com/oauth2.0/token",
  userinfo: "https://openapi.naver.com/v1/nid/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: ({ response }) => ({
    id: String(response.id),
    name: response.nickname ?? response.name ?? null,
    email: response.email ?? null,
    image: response.profile_image ?? null,
  }),
  style: { brandColor: "#03c75a", text: "#ffffff" },
})

export default Naver
