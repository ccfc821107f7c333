/**
 * Sign in with a Wikimedia account (Wikipedia, Wikidata, Commons… share one account).
 *
 * @module providers/wikimedia
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/** A user group on Wikimedia wikis (`user`, `autoconfirmed`, `sysop`…). */
export type WikimediaGroup =
  | "*"
  | "user"
  | "autoconfirmed"
  | "extendedconfirmed"
  | "confirmed"
  | "bot"
  | "sysop"
  | "bureaucrat"
  | "steward"
  | "checkuser"
  | "oversight"
  | "rollbacker"
  | (string & {})

/** A grant the user gave the consumer (`basic`, `editpage`…). */
export type WikimediaGrant =
  | "basic"
  | "highvolume"
  | "editpage"
  | "createeditmovepage"
  | "uploadfile"
  | "privateinfo"
  | "sendemail"
  | "viewmywatchlist"
  | "editmywatchlist"
  | (string & {})

/** A right the user holds (`read`, `edit`, `createpage`…). */
export type WikimediaRight =
  | "read"
  | "edit"
  | "createpage"
  | "createtalk"
  | "move"
  | "upload"
  | "writeapi"
  | "autoconfirmed"
  | "block"
  | "delete"
  | "protect"
  | (string & {})

/**
 * The signed-in user, as `GET /w/rest.php/oauth2/resource/profile` returns it.
 *
 * @see https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2
 */
export interface WikimediaProfile {
  /** The user's central (global) id, as a string. */
  sub: string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  /** When the account was created, `YYYYMMDDHHMMSS`. */
  registered: string
  groups: WikimediaGroup[]
  rights: WikimediaRight[]
  grants: WikimediaGrant[]
  /** With the "access your real name and email address" permission. */
  realname?: string
  email?: string
  [field: string]: unknown
}

/**
 * Adds Wikimedia sign-in.
 *
 * Propose an OAuth 2.0 consumer at `https://meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration/propose/oauth2`
 * with the callback URL `https://example.com/auth/callback/wikimedia` ("User identity
 * verification only", with access to the real name and email address if you want them), then
 * set:
 *
 * - `AUTH_WIKIMEDIA_ID`: the client application key
 * - `AUTH_WIKIMEDIA_SECRET`: the client application secret
 *
 * The token request carries the secret in its body. The profile is
 * `GET /w/rest.php/oauth2/resource/profile`; the account is stored under `sub`, the user's
 * global id, and named by its `username`. A consumer stays usable only by its owner until
 * Wikimedia approves it.
 *
 * @example
 * ```ts
 * import Wikimedia from "@latch/core/providers/wikimedia"
 *
 * export const config = { providers: [Wikimedia] }
 * ```
 */
const Wikimedia = oauthProvider<WikimediaProfile>({
  id: "wikimedia",
  name: "Wikimedia",
  authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
  token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
  client: { token_endpoint_auth_method: "client_secret_post" },
  userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
  profile: (profile) => ({
    id: profile.sub,
    name: profile.username || null,
    email: profile.email || null,
    image: null,
  }),
  style: { brandColor: "#006699", text: "#ffffff" },
})

export default Wikimedia
