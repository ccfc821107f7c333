/** The built-in pages: sign in, sign out, error and "check your email". */
export { renderSignInPage } from "./signin.js"
export { renderSignOutPage } from "./signout.js"
export { renderErrorPage } from "./error.js"
export { renderVerifyRequestPage } from "./verify-request.js"
export type {
  ErrorPageProps,
  PageProvider,
  RenderedPage,
  SignInPageProps,
  SignOutPageProps,
  VerifyRequestPageProps,
} from "./types.js"
