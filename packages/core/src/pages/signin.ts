/** The built-in sign-in page. */
import type { CredentialInput } from "../providers/index.js"
import { randomBase64url } from "../lib/crypto.js"
import { html, safeUrl, type SafeHtml } from "./html.js"
import { webAuthnScriptTag } from "./webauthn-script.js"
import { layout } from "./layout.js"
import type { PageProvider, RenderedPage, SignInPageProps } from "./types.js"

const NOT_LINKED = "To confirm your identity, sign in with the same account you used originally."
const DIFFERENT_ACCOUNT = "Try signing in with a different account."

/** What the page says for each `error` query parameter it knows. */
const ERROR_MESSAGES: Record<string, string> = {
  Signin: DIFFERENT_ACCOUNT,
  OAuthSignin: DIFFERENT_ACCOUNT,
  OAuthCallbackError: DIFFERENT_ACCOUNT,
  OAuthCreateAccount: DIFFERENT_ACCOUNT,
  EmailCreateAccount: DIFFERENT_ACCOUNT,
  Callback: DIFFERENT_ACCOUNT,
  OAuthAccountNotLinked: NOT_LINKED,
  // Raised when a browser signed in as one user opens an email link for another address.
  AccountNotLinked:
    "You are signed in as another user. Sign out first, then open the sign-in link again.",
  EmailSignin: "The email could not be sent. Check that the address is correct and try again.",
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  MissingCSRF: "The form expired. Please try again.",
  WebAuthnVerificationError:
    "Signing in with the passkey failed. Try again, or use another way to sign in.",
  // The code step's refusals that send the user back here (expired, or signed out).
  TwoFactorError: "The sign-in took too long to finish: sign in again.",
  AccountError:
    "Confirm your account's address (follow the link we mailed you) before linking another way to sign in.",
}

/** What the page says, instead of the error's message, for some codes of an error. */
const CODE_MESSAGES: Record<string, Record<string, string>> = {
  CredentialsSignin: {
    unverified: "Confirm your address first: follow the link we mailed you.",
    rate_limited: "Too many attempts: wait a few minutes and try again.",
    busy: "The server is busy: try again in a few seconds.",
  },
  // An attestation policy refused the authenticator: trying again with it cannot help.
  WebAuthnVerificationError: {
    attestation:
      "This site accepts passkeys only on the security keys it allows. Add the passkey with one of those.",
  },
}

const GENERIC_ERROR = "Unable to sign in."
const SAFE_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** Attributes of a credentials field that are passed on to its `<input>` when set. */
const EXTRA_ATTRIBUTES = new Set([
  "pattern",
  "minlength",
  "maxlength",
  "min",
  "max",
  "step",
  "inputmode",
  "spellcheck",
  "autocapitalize",
])

function errorMessage(error: string, code: string | undefined): string {
  const byCode = Object.hasOwn(CODE_MESSAGES, error) ? CODE_MESSAGES[error] : undefined
  if (byCode && typeof code === "string" && Object.hasOwn(byCode, code)) {
    return byCode[code] ?? GENERIC_ERROR
  }
  return Object.hasOwn(ERROR_MESSAGES, error)
    ? (ERROR_MESSAGES[error] ?? GENERIC_ERROR)
    : GENERIC_ERROR
}

function alert(error: string, code: string | undefined): SafeHtml {
  const showCode = typeof code === "string" && SAFE_CODE.test(code)
  return html`<div class="alert" role="alert">
    <p>${errorMessage(error, code)}</p>
    ${showCode ? html`<p class="code">Code: <code>${code}</code></p>` : ""}
  </div>`
}

function hiddenFields(props: SignInPageProps): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${props.csrfToken}" />
    <input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />`
}

function capitalise(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1)
}

function typeOf(input: CredentialInput): string {
  return typeof input.type === "string" && input.type !== "" ? input.type : "text"
}

/** A field's `autocomplete`: the configured one, else one from its type or name. */
function autocompleteOf(key: string, input: CredentialInput): string | undefined {
  if (typeof input.autocomplete === "string") return input.autocomplete
  if (typeOf(input).toLowerCase() === "password") return "current-password"
  if (/^(?:username|email)$/i.test(key)) return "username"
  return undefined
}

/** Whether a field's `autocomplete` names the username, and not passkeys yet. */
function namesUsername(autocomplete: string | undefined): boolean {
  const tokens = (autocomplete ?? "").toLowerCase().split(/\s+/)
  return tokens.includes("username") && !tokens.includes("webauthn")
}

function credentialField(
  key: string,
  input: CredentialInput,
  id: string,
  passkeyAutofill = false,
): SafeHtml {
  const type = typeOf(input)
  const label =
    typeof input.label === "string" && input.label !== "" ? input.label : capitalise(key)
  let autocomplete = autocompleteOf(key, input)
  // The browser offers the site's passkeys in this field's autofill, for the passkey form.
  if (passkeyAutofill && namesUsername(autocomplete)) autocomplete = `${autocomplete} webauthn`
  const extra: SafeHtml[] = []
  for (const [name, value] of Object.entries(input)) {
    const attribute = name.toLowerCase()
    if (!EXTRA_ATTRIBUTES.has(attribute)) continue
    if (typeof value === "string" || typeof value === "number") {
      extra.push(html` ${attribute}="${String(value)}"`)
    }
  }
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      id="${id}"
      name="${key}"
      type="${type}"
      ${
        typeof input.placeholder === "string" ? html` placeholder="${input.placeholder}"` : ""
      }${autocomplete ? html` autocomplete="${autocomplete}"` : ""}${
        input.required === true ? html` required` : ""
      }${extra}
    />
  </div>`
}

/** The "forgot your password?" and "create an account" links under a Password provider's form. */
function passwordLinks(provider: PageProvider): SafeHtml | "" {
  const links = provider.passwordLinks
  if (!links) return ""
  return html`<p class="footer-link">
    <a href="${safeUrl(links.resetPassword)}">Forgot your password?</a>${
      links.signUp
        ? html` <span aria-hidden="true">·</span>
            <a href="${safeUrl(links.signUp)}">Create an account</a>`
        : ""
    }
  </p>`
}

/**
 * Where the page's passkey autofill (conditional UI) goes: `"credentials"` when a credentials
 * form has a username field to offer passkeys in, `"passkey"` when only the passkey form's own
 * field can, `false` without autofill.
 */
type PasskeyAutofill = "credentials" | "passkey" | false

function passkeyAutofillOf(providers: PageProvider[]): PasskeyAutofill {
  if (!providers.some((provider) => provider.type === "webauthn" && provider.conditionalUI)) {
    return false
  }
  const usernameField = providers.some(
    (provider) =>
      provider.type === "credentials" &&
      Object.entries(provider.credentials ?? {}).some(([key, input]) =>
        namesUsername(autocompleteOf(key, input ?? {})),
      ),
  )
  return usernameField ? "credentials" : "passkey"
}

function section(
  provider: PageProvider,
  index: number,
  props: SignInPageProps,
  autofill: PasskeyAutofill,
): SafeHtml {
  return html`${form(provider, index, props, autofill)}${passwordLinks(provider)}`
}

function form(
  provider: PageProvider,
  index: number,
  props: SignInPageProps,
  autofill: PasskeyAutofill,
): SafeHtml {
  const label = `Sign in with ${provider.name}`
  switch (provider.type) {
    case "email": {
      const id = `latch-${index}-email`
      return html`<form method="post" action="${safeUrl(provider.signinUrl)}">
        ${hiddenFields(props)}
        <div class="field">
          <label for="${id}">Email</label>
          <input
            id="${id}"
            name="email"
            type="email"
            autocomplete="email"
            placeholder="you@example.com"
            required
            value="${props.email ?? ""}"
          />
        </div>
        <button type="submit" class="button primary">${label}</button>
      </form>`
    }
    case "credentials": {
      const fields = Object.entries(provider.credentials ?? {}).map(([key, input], i) =>
        credentialField(key, input ?? {}, `latch-${index}-${i}`, autofill === "credentials"),
      )
      return html`<form method="post" action="${safeUrl(provider.callbackUrl)}">
        ${hiddenFields(props)} ${fields}
        <button type="submit" class="button primary">${label}</button>
      </form>`
    }
    case "webauthn": {
      // Signing in with a passkey asks for nothing: the fields (an email) are for registering
      // one, when the app lets anonymous visitors do that, and for the autofill when no
      // credentials form has a username field to offer passkeys in.
      const withFields = provider.registers === true || autofill === "passkey"
      const fields = Object.entries(withFields ? (provider.credentials ?? {}) : {}).map(
        ([key, input], i) =>
          credentialField(key, { ...input, required: false }, `latch-${index}-${i}`),
      )
      // Hidden until the script shows it: without JavaScript there is no passkey to use.
      return html`<form
          method="post"
          action="${safeUrl(provider.callbackUrl)}"
          data-latch-webauthn
          data-options-url="${safeUrl(provider.optionsUrl ?? "#")}"
          data-conditional="${provider.conditionalUI ? "true" : "false"}"
          hidden
        >
          ${hiddenFields(props)}
          <input type="hidden" name="action" value="" />
          <input type="hidden" name="data" value="" />
          ${fields}
          ${
            provider.registers !== true
              ? html`<p class="hint">
                  Pick a passkey you have for this site. To add one to an account you have, sign in
                  another way first, then add it from your account.
                </p>`
              : ""
          }
          <div class="alert" role="alert" data-latch-alert hidden></div>
          <button type="submit" class="button secondary">${label}</button>
        </form>
        ${
          provider.passkeySignUp
            ? html`<p class="footer-link">
                New here?
                <a href="${safeUrl(provider.passkeySignUp)}">Create an account with a passkey</a>
              </p>`
            : ""
        }`
    }
    default:
      return html`<form method="post" action="${safeUrl(provider.signinUrl)}">
        ${hiddenFields(props)}
        <button type="submit" class="button secondary">${label}</button>
      </form>`
  }
}

/** Providers that are a single button are shown together; forms get a section each. */
function isButton(provider: PageProvider): boolean {
  return (
    provider.type !== "email" && provider.type !== "credentials" && provider.type !== "webauthn"
  )
}

/** Renders the sign-in page. */
export function renderSignInPage(props: SignInPageProps): RenderedPage {
  const groups: SafeHtml[][] = []
  const autofill = passkeyAutofillOf(props.providers)
  props.providers.forEach((provider, index) => {
    const last = groups.at(-1)
    const previous = props.providers[index - 1]
    const rendered = section(provider, index, props, autofill)
    if (last && previous && isButton(previous) && isButton(provider)) last.push(rendered)
    else groups.push([rendered])
  })
  const divider = html`<div class="divider"><span>or</span></div>`
  const content =
    groups.length === 0
      ? html`<p class="lead">No sign-in method is configured.</p>`
      : groups.map(
          (group, i) =>
            html`${i > 0 ? divider : ""}
              <div class="stack">${group}</div>`,
        )
  const scriptNonce = props.providers.some((provider) => provider.type === "webauthn")
    ? randomBase64url(16)
    : undefined
  const body = html`<h1>Sign in</h1>
    ${typeof props.error === "string" && props.error !== "" ? alert(props.error, props.code) : ""}
    ${content} ${webAuthnScriptTag(scriptNonce)}`
  return {
    status: 200,
    html: layout({ title: "Sign in", theme: props.theme, body }),
    ...(scriptNonce ? { scriptNonce } : {}),
  }
}
