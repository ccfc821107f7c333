/**
 * The form actions of password accounts, of the signed-in user's sign-in methods and of
 * two-factor authentication. Each posts its form to one of core's actions (under `basePath`)
 * through `callAuth`, as `signIn` does: the same origin check, no CSRF round trip, cookies
 * through `event.cookies`, a 303 on success.
 *
 * | action                    | posts to                     | fields read                          |
 * | ------------------------- | ---------------------------- | ------------------------------------ |
 * | `signUp`                  | `/signup/<id>`               | `email`, `password`, `name`          |
 * | `requestPasswordReset`    | `/reset-password/<id>`       | `email`                              |
 * | `setNewPassword`          | `/new-password/<id>`         | `token` (or `?token=`), `password`   |
 * | `changePassword`          | `/change-password/<id>`      | `currentPassword`, `password`        |
 * | `removeSignInMethod`      | `/unlink/<provider>`         | `provider`, `id`                     |
 * | `renamePasskey`           | `/passkey/rename`            | `id`, `name`                         |
 * | `verifyTwoFactor`         | `/two-factor`                | `code` or `recoveryCode`             |
 * | `confirmTwoFactorSetup`   | `/two-factor/setup`          | `setup`, `code`, `currentCode`       |
 * | `disableTwoFactor`        | `/two-factor/disable`        | `code` or `recoveryCode`             |
 * | `regenerateRecoveryCodes` | `/two-factor/recovery-codes` | `code`                               |
 * | `reauthenticate`          | `/reauthenticate`            | `method` and its fields (see below)  |
 *
 * `<id>` is the form's `providerId`, by default `"password"` (the Password provider's default
 * id). All but `setNewPassword` and `verifyTwoFactor` read `redirectTo` too (a reset link
 * carries where it goes, and so does a sign-in waiting for its code). Only the fields listed
 * are posted: a form's other fields (a "repeat password") never reach core as if they were its
 * own.
 *
 * `confirmTwoFactorSetup` and `regenerateRecoveryCodes` do not redirect: they return the new
 * recovery codes (`{ recoveryCodes, continueUrl }`), for the page to show once.
 *
 * A change of the account's ways in (`changePassword`, `removeSignInMethod`, the two-factor
 * actions, and adding a passkey or linking an account through `signIn`) needs fresh proof that
 * the owner is there (`accountChanges.freshAge` after a sign-in or a re-authentication). Without
 * it, the action redirects (303) to the re-authentication step — core's page, or
 * `pages.reauthenticate` — which comes back to the page once confirmed: nothing was changed.
 *
 * The user's own mistakes are thrown rather than redirected, so a page shows them inline:
 * `PasswordError` (a password the policy refuses, a wrong current password, not one address…),
 * `AccountError` (the last way to sign in, a method or passkey that is not theirs, a passkey name
 * that cannot be one) and `TwoFactorError` (a
 * wrong or used code, a sign-in that waited too long), each with a `code`. Over a rate limit
 * the error has `code: "rate_limited"` and `retryAfter`, and the page's response gets a
 * `Retry-After` header. Everything else ends in a 303: a link that no longer works
 * (`Verification`) or a configuration error goes to the error page.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { callAuth, destination, fieldsOf, follow } from "./actions.js"
import { configFor } from "./config.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

/**
 * A form action. `fields`, when given, replaces the request's form (a remote `form` passes what
 * it read). It never returns: it redirects, or throws the refusal.
 */
export type AuthFormAction = (
  event: RequestEvent,
  fields?: Record<string, unknown>,
) => Promise<never>

/**
 * What `confirmTwoFactorSetup` and `regenerateRecoveryCodes` return: a page shows the codes once
 * (they are stored only as HMACs), then a link on.
 */
export interface RecoveryCodes {
  /** The new recovery codes, e.g. `"k3mzq-7hw2d"`; the user's earlier ones no longer work. */
  recoveryCodes: string[]
  /**
   * Where to go on from the page showing them (absolute): after a setup a sign-in needed first
   * (`twoFactor.required`), where that sign-in was going — the session has started; else the
   * form's `redirectTo`, by default the page the form was on.
   */
  continueUrl: string
}

/**
 * A form action that answers with new recovery codes rather than a redirect. `fields` as for
 * `AuthFormAction`. Throws `TwoFactorError` for a refused code; other failures redirect (303) to
 * the error page.
 */
export type RecoveryCodesAction = (
  event: RequestEvent,
  fields?: Record<string, unknown>,
) => Promise<RecoveryCodes>

/** What an action posts: core's action path (under `basePath`) and the form body. */
export interface Post {
  path: string
  body: Record<string, string | undefined>
}

/** The id of the Password provider a form names; `"password"`, its default, when none. */
const DEFAULT_PASSWORD_PROVIDER = "password"

function passwordPath(action: string, fields: Record<string, string>): string {
  return `/${action}/${encodeURIComponent(fields.providerId || DEFAULT_PASSWORD_PROVIDER)}`
}

/** The form body of a `Post`: its set fields only. */
function formOf(body: Post["body"]): URLSearchParams {
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(body)) if (value !== undefined) form.set(name, value)
  return form
}

/** A form action that posts what `describe` makes of the form. */
export function formAction(
  input: SvelteKitAuthConfigInput,
  describe: (fields: Record<string, string>, event: RequestEvent) => Post,
  { followReauthentication = true }: { followReauthentication?: boolean } = {},
): AuthFormAction {
  return async (event, given) => {
    const prepared = await configFor(input, event)
    const { path, body } = describe(await fieldsOf(event, given), event)
    const result = await callAuth(event, prepared, path, new URLSearchParams(), formOf(body), {
      followReauthentication,
    })
    return follow(prepared, result.redirect)
  }
}

/** Whether a value is an array of strings. */
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/**
 * A form action that posts what `describe` makes of the form and returns the recovery codes
 * core answers with (`X-Auth-Return-Redirect: 1`: `{ url, recoveryCodes }` rather than a page).
 * An answer without codes is a failure that is not the user's: its `url` is the error page.
 */
function codesAction(
  input: SvelteKitAuthConfigInput,
  describe: (fields: Record<string, string>, event: RequestEvent) => Post,
): RecoveryCodesAction {
  return async (event, given) => {
    const prepared = await configFor(input, event)
    const { path, body } = describe(await fieldsOf(event, given), event)
    const result = await callAuth(event, prepared, path, new URLSearchParams(), formOf(body), {
      returnRedirect: true,
    })
    const answer = result.body as { url?: unknown; recoveryCodes?: unknown } | undefined
    const url = typeof answer?.url === "string" ? answer.url : undefined
    if (url !== undefined && isStrings(answer?.recoveryCodes))
      return { recoveryCodes: answer.recoveryCodes, continueUrl: url }
    return follow(prepared, url ?? result.redirect)
  }
}

/**
 * Asks for an account: sends the "check your email" mail and redirects to the verify-request
 * page, whether or not the address has an account. The destination (`redirectTo`) is where the
 * mailed link leads once followed; it is not the sign-up page itself (`Referer`): the user
 * leaves that page for their mail.
 */
export function createSignUp(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("signup", fields),
    body: {
      email: fields.email,
      password: fields.password,
      name: fields.name,
      callbackUrl: destination(fields, event, { referer: false }),
    },
  }))
}

/**
 * Asks for a reset link: mails it (or, to an address without an account, a mail saying so) and
 * redirects to the verify-request page either way. The destination is where the user lands
 * once the new password is set; not the "forgot password" page, which they leave.
 */
export function createRequestPasswordReset(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("reset-password", fields),
    body: { email: fields.email, callbackUrl: destination(fields, event, { referer: false }) },
  }))
}

/**
 * Sets the password a reset link allows: signs the user in (every other session ends) and
 * redirects where the reset request was headed; no destination of its own, the link carries it.
 * The token is the form's `token` field, else the page's `?token=` (a form without `action`
 * posts to the page's URL, query and all).
 */
export function createSetNewPassword(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("new-password", fields),
    body: {
      token: fields.token || event.url.searchParams.get("token") || undefined,
      password: fields.password,
    },
  }))
}

/**
 * Changes the signed-in user's password, given the current one; their other sessions end
 * (database sessions) and a notification is mailed. Returns to the page by default.
 */
export function createChangePassword(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: passwordPath("change-password", fields),
    body: {
      currentPassword: fields.currentPassword,
      password: fields.password,
      callbackUrl: destination(fields, event),
    },
  }))
}

/**
 * Removes one of the signed-in user's sign-in methods, named as `getSignInMethods` lists it:
 * `provider` and `id` (`""` for the password). Returns to the page by default.
 */
export function createRemoveSignInMethod(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    // No provider: `/unlink/`, which core refuses as a method not found.
    path: `/unlink/${encodeURIComponent(fields.provider ?? "")}`,
    body: { id: fields.id, callbackUrl: destination(fields, event) },
  }))
}

/**
 * The code step of a sign-in waiting for its second factor: `code` (from the authenticator
 * app) or `recoveryCode`. The session starts and the user goes where the sign-in was going
 * (303). Throws `TwoFactorError`: `wrong_code`, `replayed_code`, `rate_limited`, or `expired`
 * when the browser has no sign-in waiting (too late, or none: sign in again).
 */
export function createVerifyTwoFactor(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields) => ({
    path: "/two-factor",
    body: { code: fields.code, recoveryCode: fields.recoveryCode },
  }))
}

/**
 * Turns two-factor authentication on (or replaces the authenticator): `setup` as
 * `beginTwoFactorSetup` made it, `code` from the app given the new secret, and `currentCode`
 * of the current authenticator when the setup is `replacing` one. Returns the recovery codes.
 * For a sign-in that had to set one up first (`twoFactor.required`), the session starts too
 * (its cookies are set) and `continueUrl` is where that sign-in was going. Turning it on ends
 * the user's other database sessions.
 */
export function createConfirmTwoFactorSetup(input: SvelteKitAuthConfigInput): RecoveryCodesAction {
  return codesAction(input, (fields, event) => ({
    path: "/two-factor/setup",
    body: {
      setup: fields.setup,
      code: fields.code,
      currentCode: fields.currentCode,
      callbackUrl: destination(fields, event),
    },
  }))
}

/**
 * Turns the signed-in user's two-factor authentication off, given a `code` of it (or a
 * `recoveryCode`); a session alone does not. Returns to the page by default (303).
 */
/**
 * Turns the authenticator app off, given a `code` or a `recoveryCode`: a redirect to the
 * destination. A user who keeps security keys as their second factor stays protected by them and
 * gets new recovery codes (the old ones went with the app): returned then, as
 * `regenerateRecoveryCodes` returns them, for the page to show once.
 */
export function createDisableTwoFactor(input: SvelteKitAuthConfigInput): RecoveryCodesAction {
  return codesAction(input, (fields, event) => ({
    path: "/two-factor/disable",
    body: {
      code: fields.code,
      recoveryCode: fields.recoveryCode,
      callbackUrl: destination(fields, event),
    },
  }))
}

/**
 * New recovery codes for the signed-in user, given a `code` of their authenticator; the old
 * codes stop working. Returns them.
 */
export function createRegenerateRecoveryCodes(
  input: SvelteKitAuthConfigInput,
): RecoveryCodesAction {
  return codesAction(input, (fields, event) => ({
    path: "/two-factor/recovery-codes",
    body: { code: fields.code, callbackUrl: destination(fields, event) },
  }))
}

/**
 * The re-authentication step ("Confirm it is you") on a page of the app's own
 * (`pages.reauthenticate`, which `getReauthentication` feeds): `method` is
 *
 * - `"password"`, with `password`;
 * - `"code"`, with `code` (from the authenticator app) or `recoveryCode`;
 * - `"passkey"`, with `action: "authenticate"` and `data` (the credential's JSON, as
 *   `@latch/sveltekit/webauthn` makes it from the options of `webauthn-options/<provider>`);
 * - `"email"`, with `send: "1"` to mail a code (the page comes back with `?sent=1`), then with
 *   `emailCode`.
 *
 * Once confirmed, redirects (303) to `redirectTo` (the page's `?callbackUrl=`, where the change
 * was asked). Throws `ReauthenticationRequired` with a `code` for a refused try (`wrong_password`,
 * `wrong_code`, `replayed_code`, `passkey_failed`, `code_expired`, `rate_limited` with
 * `retryAfter`, `mail_failed`, `second_factor` for a way that does not include the user's second
 * factor, `no_method`, `signed_out`).
 */
export function createReauthenticate(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(
    input,
    (fields, event) => ({
      path: "/reauthenticate",
      body: {
        method: fields.method,
        password: fields.password,
        code: fields.code,
        recoveryCode: fields.recoveryCode,
        emailCode: fields.emailCode,
        send: fields.send,
        action: fields.action,
        data: fields.data,
        callbackUrl: destination(fields, event, { referer: false }),
      },
    }),
    { followReauthentication: false },
  )
}

/**
 * Renames one of the signed-in user's passkeys: `id` as `getSignInMethods` lists it, and `name`
 * (trimmed; at most 64 characters, no control characters). No fresh proof: a name opens nothing.
 * Returns to the page by default.
 */
export function createRenamePasskey(input: SvelteKitAuthConfigInput): AuthFormAction {
  return formAction(input, (fields, event) => ({
    path: "/passkey/rename",
    body: { id: fields.id, name: fields.name, callbackUrl: destination(fields, event) },
  }))
}
