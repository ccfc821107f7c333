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

/** What the page says, instead of the error's message, for a code of `error=CredentialsSignin`. */
const CREDENTIALS_CODE_MESSAGES: Record<string, string> = {
  unverified: "Confirm your address first: follow the link we mailed you.",
  rate_limited: "Too many attempts: wait a few minutes and try again.",
  busy: "The server is busy: try again in a few seconds.",
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
  if (
    error === "CredentialsSignin" &&
    typeof code === "string" &&
    Object.hasOwn(CREDENTIALS_CODE_MESSAGES, code)
  ) {
    return CREDENTIALS_CODE_MESSAGES[code] ?? GENERIC_ERROR
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

function credentialField(key: string, input: CredentialInput, id: string): SafeHtml {
  const type = typeof input.type === "string" && input.type !== "" ? input.type : "text"
  const label =
    typeof input.label === "string" && input.label !== "" ? input.label : capitalise(key)
  let autocomplete = typeof input.autocomplete === "string" ? input.autocomplete : undefined
  if (autocomplete === undefined) {
    if (type.toLowerCase() === "password") autocomplete = "current-password"
    else if (/^(?:username|email)$/i.test(key)) autocomplete = "username"
  }
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

function section(provider: PageProvider, index: number, props: SignInPageProps): SafeHtml {
  return html`${form(provider, index, props)}${passwordLinks(provider)}`
}

function form(provider: PageProvider, index: number, props: SignInPageProps): SafeHtml {
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
        credentialField(key, input ?? {}, `latch-${index}-${i}`),
      )
      return html`<form method="post" action="${safeUrl(provider.callbackUrl)}">
        ${hiddenFields(props)} ${fields}
        <button type="submit" class="button primary">${label}</button>
      </form>`
    }
    case "webauthn": {
      const fields = Object.entries(provider.credentials ?? {}).map(([key, input], i) =>
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
          provider.credentials?.email
            ? html`<p class="hint">
                Pick a passkey you have for this site. To add one, sign in another way first, then
                add it from your account.
              </p>`
            : ""
        }
        <div class="alert" role="alert" data-latch-alert hidden></div>
        <button type="submit" class="button secondary">${label}</button>
      </form>`
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
  props.providers.forEach((provider, index) => {
    const last = groups.at(-1)
    const previous = props.providers[index - 1]
    const rendered = section(provider, index, props)
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
