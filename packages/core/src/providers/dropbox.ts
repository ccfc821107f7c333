/**
 * Sign in with Dropbox.
 *
 * @module providers/dropbox
 */
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/**
 * The signed-in account, as `POST /2/users/get_current_account` returns it.
 *
 * @see https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account
 */
export interface DropboxProfile {
  /** The account's id, e.g. `dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc`. */
  account_id: string
  name: {
    given_name: string
    surname: string
    familiar_name: string
    display_name: string
    abbreviated_name: string
  }
  email: string
  email_verified: boolean
  disabled: boolean
  locale: string
  referral_link: string
  is_paired: boolean
  account_type: { ".tag": string }
  root_info: Record<string, unknown>
  profile_photo_url?: string
  country?: string
  team?: Record<string, unknown>
  [field: string]: unknown
}

/**
 * Adds Dropbox sign-in.
 *
 * Create an app in the Dropbox App Console with the redirect URI
 * `https://example.com/auth/callback/dropbox` and the `account_info.read` permission, then set:
 *
 * - `AUTH_DROPBOX_ID`: the app key
 * - `AUTH_DROPBOX_SECRET`: the app secret
 *
 * The authorization asks for `account_info.read` and `token_access_type=offline` (a refresh
 * token); the profile is `POST /2/users/get_current_account`, which Dropbox's API calls with
 * POST and no body.
 *
 * @example
 * ```ts
 * import Dropbox from "@latch/core/providers/dropbox"
 *
 * export const config = { providers: [Dropbox] }
 * ```
 */
const Dropbox = oauthProvider<DropboxProfile>({
  id: "dropbox",
  name: "Dropbox",
  authorization: "https://www.dropbox.com/oauth2/authorize",
  params: { scope: "account_info.read", token_access_type: "offline" },
  token: "https://api.dropboxapi.com/oauth2/token",
  userinfo: profileFrom({
    url: "https://api.dropboxapi.com/2/users/get_current_account",
    method: "POST",
  }),
  profile: (profile) => ({
    id: profile.account_id,
    name: profile.name?.display_name ?? null,
    email: profile.email ?? null,
    image: profile.profile_photo_url ?? null,
  }),
  style: { brandColor: "#0061fe", text: "#ffffff" },
})

export default Dropbox
