/**
 * The default `getUserInfo` of WebAuthn providers, apart from the provider's module so that the
 * sign-in page and the options flow can recognise it without importing that module (which
 * names `@simplewebauthn/server`: see `library.ts`).
 */
import type { GetUserInfo } from "../../types/webauthn.js"

/**
 * The default `getUserInfo`: nobody. An address typed into a form is a claim, not a proof, so a
 * visitor who is not signed in never gets a new account from it; and since the answer never
 * depends on the address, `webauthn-options` tells nobody which addresses have accounts.
 */
export const defaultGetUserInfo: GetUserInfo = () => null
