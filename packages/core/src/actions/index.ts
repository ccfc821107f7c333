/**
 * The route table: action × method → handler, and whether the request must carry a CSRF
 * token. Anything not in the table is a 405 with `Allow`.
 */
import { MethodNotAllowed } from "../errors.js"
import type { AuthRequest } from "../request/parse.js"
import type { AuthAction, ResponseInternal } from "../types.js"
import { callback } from "./callback.js"
import type { ActionContext } from "./context.js"
import { csrf } from "./csrf.js"
import { errorPage } from "./error.js"
import { providers } from "./providers.js"
import { getSessionAction, updateSessionAction } from "./session.js"
import { signInPage, startSignIn } from "./signin.js"
import { signOut, signOutPage } from "./signout.js"
import { verifyRequestPage } from "./verify-request.js"
import { webAuthnOptions } from "./webauthn-options.js"
import { accountMethods, passkeyAction, unlinkMethod } from "./account.js"
import { twoFactorPage, twoFactorPost } from "./two-factor.js"
import { reauthenticatePage, reauthenticatePost } from "./reauthenticate.js"
import { passkeySignUpPage, passkeySignUpPost } from "./passkey-signup.js"
import {
  changePasswordPage,
  changePasswordPost,
  newPasswordPage,
  newPasswordPost,
  resetPasswordPage,
  resetPasswordPost,
  signUpPage,
  signUpPost,
  verifyEmailLink,
  verifyEmailPost,
} from "./password.js"

/** One row of the table. */
export interface Route {
  run: (ctx: ActionContext) => Promise<ResponseInternal>
  /** Checked before `run`. The callback checks CSRF itself: OAuth callbacks carry `state` instead. */
  csrf: boolean
}

const table: Record<AuthAction, { GET?: Route; POST?: Route }> = {
  csrf: { GET: { run: csrf, csrf: false } },
  providers: { GET: { run: providers, csrf: false } },
  session: {
    GET: { run: getSessionAction, csrf: false },
    POST: { run: updateSessionAction, csrf: true },
  },
  signin: { GET: { run: signInPage, csrf: false }, POST: { run: startSignIn, csrf: true } },
  signout: { GET: { run: signOutPage, csrf: false }, POST: { run: signOut, csrf: true } },
  callback: { GET: { run: callback, csrf: false }, POST: { run: callback, csrf: false } },
  error: { GET: { run: errorPage, csrf: false } },
  "verify-request": { GET: { run: verifyRequestPage, csrf: false } },
  "webauthn-options": { GET: { run: webAuthnOptions, csrf: false } },
  signup: { GET: { run: signUpPage, csrf: false }, POST: { run: signUpPost, csrf: true } },
  // A link from a mail: its GET shows a page (scanners open links), whose button posts the token.
  "verify-email": {
    GET: { run: verifyEmailLink, csrf: false },
    POST: { run: verifyEmailPost, csrf: true },
  },
  "reset-password": {
    GET: { run: resetPasswordPage, csrf: false },
    POST: { run: resetPasswordPost, csrf: true },
  },
  "new-password": {
    GET: { run: newPasswordPage, csrf: false },
    POST: { run: newPasswordPost, csrf: true },
  },
  "change-password": {
    GET: { run: changePasswordPage, csrf: false },
    POST: { run: changePasswordPost, csrf: true },
  },
  account: { GET: { run: accountMethods, csrf: false } },
  "two-factor": {
    GET: { run: twoFactorPage, csrf: false },
    POST: { run: twoFactorPost, csrf: true },
  },
  unlink: { POST: { run: unlinkMethod, csrf: true } },
  passkey: { POST: { run: passkeyAction, csrf: true } },
  "passkey-signup": {
    GET: { run: passkeySignUpPage, csrf: false },
    POST: { run: passkeySignUpPost, csrf: true },
  },
  reauthenticate: {
    GET: { run: reauthenticatePage, csrf: false },
    POST: { run: reauthenticatePost, csrf: true },
  },
}

/** The route for the request's action and method. */
export function route(request: AuthRequest): Route {
  const routes = table[request.action]
  // HEAD is GET without the body (RFC 9110 §9.3.2); the server drops the body.
  const method = request.method === "HEAD" ? "GET" : request.method
  const found = routes[method as "GET" | "POST"]
  if (found) return found
  const error = new MethodNotAllowed(`${request.action} does not accept ${request.method}`)
  error.allow = Object.keys(routes).flatMap((allowed) =>
    allowed === "GET" ? ["GET", "HEAD"] : [allowed],
  )
  throw error
}
