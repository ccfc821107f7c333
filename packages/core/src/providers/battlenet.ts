/**
 * Sign in with Battle.net (Blizzard), through OpenID Connect.
 *
 * @module providers/battlenet
 */
import type { OAuthUserConfig, OIDCConfig } from "./index.js"
import { finishing, oidcProvider } from "../lib/provider-shapes.js"
import { issuerFromEnv, sameURL, type FinishProvider } from "../lib/provider-rules.js"

/**
 * The claims of a Battle.net ID token (and of its userinfo endpoint).
 *
 * @see https://develop.battle.net/documentation/guides/using-oauth
 */
export interface BattleNetProfile {
  /** The account's id, a number as a string. */
  sub: string
  /** The BattleTag, e.g. `Alice#1234`. */
  battle_tag: string
  [claim: string]: unknown
}

/** The issuers of Battle.net's regions. */
export type BattleNetIssuer =
  | "https://oauth.battle.net"
  | "https://oauth.battlenet.com.cn"
  | "https://www.battlenet.com.cn/oauth"
  | `https://${"us" | "eu" | "kr" | "tw"}.battle.net/oauth`

const issuers: readonly BattleNetIssuer[] = [
  "https://oauth.battle.net",
  "https://oauth.battlenet.com.cn",
  "https://www.battlenet.com.cn/oauth",
  "https://us.battle.net/oauth",
  "https://eu.battle.net/oauth",
  "https://kr.battle.net/oauth",
  "https://tw.battle.net/oauth",
]

/** The issuer must be one of the regions'; none means the global one. */
const regionIssuer: FinishProvider = (provider, context) => {
  const issuer = provider.issuer ?? issuers[0]!
  if (!issuers.some((known) => sameURL(known, issuer))) {
    context.fail(`cannot use the issuer ${issuer}: Battle.net's issuers are ${issuers.join(", ")}`)
  }
  return { ...provider, issuer }
}

/**
 * Adds Battle.net sign-in.
 *
 * Create a client in the Blizzard Developer Portal with the redirect URL
 * `https://example.com/auth/callback/battlenet`, then set:
 *
 * - `AUTH_BATTLENET_ID`: the client ID
 * - `AUTH_BATTLENET_SECRET`: the client secret
 * - `AUTH_BATTLENET_ISSUER` (optional): the region's issuer, one of `https://oauth.battle.net`
 *   (the default), `https://oauth.battlenet.com.cn`, `https://www.battlenet.com.cn/oauth`,
 *   `https://us.battle.net/oauth`, `https://eu.battle.net/oauth`, `https://kr.battle.net/oauth`,
 *   `https://tw.battle.net/oauth`; any other issuer is refused at start-up
 *
 * The sign-in asks for the `openid` scope only (add `wow.profile`, `sc2.profile`… for the game
 * APIs): Battle.net releases no name, email or picture, so the user's name is the BattleTag.
 *
 * @example
 * ```ts
 * import BattleNet from "@latch/core/providers/battlenet"
 *
 * export const config = { providers: [BattleNet({ issuer: "https://eu.battle.net/oauth" })] }
 * ```
 */
const BattleNet: <P extends BattleNetProfile = BattleNetProfile>(
  options?: OAuthUserConfig<P> & { issuer?: BattleNetIssuer },
) => OIDCConfig<P> = oidcProvider<BattleNetProfile>({
  id: "battlenet",
  name: "Battle.net",
  params: { scope: "openid" },
  profile: (profile) => ({
    id: profile.sub,
    name: profile.battle_tag ?? null,
    email: null,
    image: null,
  }),
  style: { brandColor: "#148eff", text: "#ffffff" },
  finish: finishing(issuerFromEnv, regionIssuer),
})

export default BattleNet
