/**
 * Sign in with Notion, through a public integration.
 *
 * @module providers/notion
 */
import type { OAuth2Config, OAuthUserConfig } from "./index.js"
import { oauthProvider, profileFrom } from "../lib/provider-shapes.js"

/** A person's details in a Notion user. */
export interface Person {
  /** Present when the integration may read users' email addresses. */
  email?: string
  [field: string]: unknown
}

/**
 * A Notion user: a person, or a bot (an integration).
 *
 * @see https://developers.notion.com/reference/user
 */
export interface User {
  object: "user"
  id: string
  type?: "person" | "bot"
  name?: string | null
  avatar_url?: string | null
  person?: Person
  bot?: {
    owner?: Owner | { type: "workspace"; workspace: true }
    workspace_name?: string | null
  }
  [field: string]: unknown
}

/** Who owns an integration's access: for a public integration, the user who authorized it. */
export interface Owner {
  type: "user"
  user: User
}

/**
 * The integration's bot user, as `GET /v1/users/me` returns it: its `bot.owner.user` is the
 * person who signed in.
 *
 * @see https://developers.notion.com/reference/get-self
 */
export interface NotionProfile extends User {
  type: "bot"
  bot: { owner?: Owner | { type: "workspace"; workspace: true }; workspace_name?: string | null }
}

/** Options Auth.js's Notion provider takes besides the client. */
interface NotionOptions {
  /** Accepted for configurations written for Auth.js; the callback URL is Latch's own. */
  redirectUri?: string
}

/** The API version the profile request names. */
const NOTION_VERSION = "2022-06-28"

const factory = oauthProvider<NotionProfile>({
  id: "notion",
  name: "Notion",
  authorization: "https://api.notion.com/v1/oauth/authorize",
  params: { owner: "user" },
  token: "https://api.notion.com/v1/oauth/token",
  userinfo: profileFrom({
    url: "https://api.notion.com/v1/users/me",
    headers: { "Notion-Version": NOTION_VERSION },
  }),
  profile: (profile) => {
    const owner = profile.bot?.owner
    if (owner?.type !== "user") throw new Error("The Notion integration is not owned by a user")
    return {
      id: String(owner.user.id),
      name: owner.user.name ?? null,
      email: owner.user.person?.email ?? null,
      image: owner.user.avatar_url ?? null,
    }
  },
  style: { brandColor: "#000000", text: "#ffffff" },
})

/**
 * Adds Notion sign-in.
 *
 * Create a public integration at https://www.notion.so/my-integrations with the redirect URI
 * `https://example.com/auth/callback/notion` and the capability "Read user information including
 * email addresses", then set:
 *
 * - `AUTH_NOTION_ID`: the OAuth client ID
 * - `AUTH_NOTION_SECRET`: the OAuth client secret
 *
 * The authorization asks for `owner=user`. The token request authenticates with HTTP Basic; its
 * answer carries the bot, the workspace and the `owner` (kept as they are). The profile is the
 * integration's bot user, `GET /v1/users/me` with the `Notion-Version` header, whose
 * `bot.owner.user` is the person who signed in.
 *
 * @example
 * ```ts
 * import Notion from "@latch/core/providers/notion"
 *
 * export const config = { providers: [Notion] }
 * ```
 */
export default function Notion<P extends NotionProfile = NotionProfile>(
  options: OAuthUserConfig<P> & NotionOptions = {},
): OAuth2Config<P> {
  const { redirectUri: _, ...rest } = options
  return factory<P>(rest)
}
