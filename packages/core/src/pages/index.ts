/**
 * The built-in pages: sign in, sign out, error, "check your email", the page a mailed link opens,
 * and password accounts'.
 */
export { renderSignInPage } from "./signin.js"
export { renderSignOutPage } from "./signout.js"
export { renderErrorPage } from "./error.js"
export { renderVerifyRequestPage } from "./verify-request.js"
export { renderContinuePage } from "./continue.js"
export {
  passwordErrorMessage,
  renderChangePasswordPage,
  renderNewPasswordPage,
  renderResetRequestPage,
  renderSignUpPage,
  type PasswordMessageBounds,
} from "./password.js"
export type {
  ChangePasswordPageProps,
  ContinuePageProps,
  ErrorPageProps,
  NewPasswordPageProps,
  PageProvider,
  PasswordLengthProps,
  PasswordPageProps,
  RenderedPage,
  ResetRequestPageProps,
  SignInPageProps,
  SignOutPageProps,
  SignUpPageProps,
  VerifyRequestCodeForm,
  VerifyRequestPageProps,
} from "./types.js"
