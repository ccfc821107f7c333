/**
 * Sign in with Slack ("Sign in with Slack", OpenID Connect).
 *
 * @module providers/slack
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { userFromClaims } from "../lib/claims.js"
import { withDefaults } from "../lib/endpoint.js"
import { narrowingParam, withFinish, type SignInFacts } from "../lib/provider-rules.js"

/**
 * The claims of a Sign in with Slack ID token.
 *
 * @see https://docs.slack.dev/authentication/sign-in-with-slack/
 */
export interface SlackProfile {
  /** The Slack user ID, e.g. `U0R7JM`. */
  sub: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/team_name"?: string
  "https://slack.com/team_domain"?: string
  "https://slack.com/user_image_24"?: string
  "https://slack.com/user_image_192"?: string
  "https://slack.com/user_image_512"?: string
  email?: string
  email_verified?: boolean
  date_email_verified?: number
  name?: string
  picture?: string
  given_name?: string
  family_name?: string
  locale?: string
  [claim: string]: unknown
}

/**
 * Whether the ID token names the configured workspace.
 *
 * @see https://docs.slack.dev/authentication/sign-in-with-slack/
 */
function checkTeam(team: string, { claims }: SignInFacts): string | undefined {
  const signedIn = claims?.["https://slack.com/team_id"]
  return signedIn === team
    ? undefined
    : `the user signed in to workspace ${JSON.stringify(String(signedIn))}, not ${team}`
}

/**
 * Adds Slack sign-in.
 *
 * Create a Slack app; under "OAuth & Permissions" add the redirect URL
 * `https://example.com/auth/callback/slack` (Slack requires HTTPS), then set:
 *
 * - `AUTH_SLACK_ID`: the client ID
 * - `AUTH_SLACK_SECRET`: the client secret
 *
 * Issuer `https://slack.com`; scope `openid profile email`. A user ID is unique within its
 * workspace: `https://slack.com/team_id` says which one.
 *
 * `team` (a workspace ID) limits who may sign in: Slack only tries to sign the user in to that
 * workspace, so Latch also refuses (`AccessDenied`) any sign-in whose ID token names another
 * `https://slack.com/team_id`, and a sign-in request cannot replace the value.
 *
 * @example
 * ```ts
 * import Slack from "@latch/core/providers/slack"
 *
 * export const config = { providers: [Slack] }
 *
 * // Only the members of one workspace:
 * Slack({ authorization: { params: { team: "T0123456" } } })
 * ```
 */
export default function Slack<P extends SlackProfile = SlackProfile>(
  options: OAuthUserConfig<P> = {},
): OIDCConfig<P> {
  const { authorization, ...rest } = options
  const provider: OIDCConfig<P> = {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    authorization: withDefaults(undefined, { scope: "openid profile email" }, authorization),
    profile: userFromClaims,
    style: { brandColor: "#4a154b", text: "#ffffff" },
    ...rest,
  }
  return withFinish(provider, narrowingParam("team", checkTeam))
}
