/** OAuth 2.0 and OpenID Connect sign-in: `startOAuth` sends the user out, `finishOAuth` brings them back. */
export { startOAuth } from "./authorize.js"
export { finishOAuth, type OAuthOutcome } from "./callback.js"
