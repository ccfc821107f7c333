/**
 * Sign in with EVE Online's single sign-on.
 *
 * @module providers/eveonline
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/**
 * The signed-in character, as the SSO's `GET /oauth/verify` returns it.
 *
 * @see https://developers.eveonline.com/docs/services/sso/
 */
export interface EVEOnlineProfile {
  /** The character's numeric id. */
  CharacterID: number
  CharacterName: string
  ExpiresOn: string
  Scopes: string
  TokenType: string
  /** Changes when the character moves to another account. */
  CharacterOwnerHash: string
  IntellectualProperty: string
  [field: string]: unknown
}

/**
 * Adds EVE Online sign-in: a user signs in as one of their characters.
 *
 * Create an application at https://developers.eveonline.com with the callback URL
 * `https://example.com/auth/callback/eveonline`, then set:
 *
 * - `AUTH_EVEONLINE_ID`: the client ID
 * - `AUTH_EVEONLINE_SECRET`: the secret key
 *
 * SSO v2: the authorization asks for `publicData` and is protected by `state`; the token request
 * authenticates with HTTP Basic and needs no redirect URI. The character comes from
 * `GET /oauth/verify`; its portrait from the image server. EVE gives no email address.
 *
 * @example
 * ```ts
 * import EVEOnline from "@latch/core/providers/eveonline"
 *
 * export const config = { providers: [EVEOnline] }
 * ```
 */
const EVEOnline = oauthProvider<EVEOnlineProfile>({
  id: "eveonline",
  name: "EVE Online",
  authorization: "https://login.eveonline.com/v2/oauth/authorize",
  params: { scope: "publicData" },
  token: "https://login.eveonline.com/v2/oauth/token",
  userinfo: "https://login.eveonline.com/oauth/verify",
  checks: ["state"],
  profile: (profile) => ({
    id: String(profile.CharacterID),
    name: profile.CharacterName ?? null,
    email: null,
    image: `https://images.evetech.net/characters/${profile.CharacterID}/portrait?size=128`,
  }),
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default EVEOnline
