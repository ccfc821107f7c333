/**
 * What a configuration with WebAuthn providers must have, checked once when it is resolved: the
 * experimental flag, an adapter with the authenticator methods, at most one provider in the
 * browser's autofill, and a way to mail codes for passkey-first sign-up.
 */
import type { Adapter } from "../adapters.js"
import {
  DuplicateConditionalUI,
  InvalidProvider,
  ExperimentalFeatureNotEnabled,
  MissingAdapter,
  MissingWebAuthnAutocomplete,
} from "../errors.js"
import { WEBAUTHN_ADAPTER_METHODS } from "../flows/webauthn/adapter.js"
import type { WarningCode } from "../lib/logger.js"
import { requireMethods } from "../session/adapter-call.js"
import {
  isEmailProvider,
  isWebAuthnProvider,
  passwordProviderOf,
  type InternalProvider,
} from "./providers.js"

/**
 * Passkey-first sign-up mails a code, through what sends the account mails: the `Password`
 * provider's `sendMail`, else an email provider that can send any message. Without one, every
 * sign-up would fail at its first step; say so at startup instead.
 */
function assertSignUp(providers: Map<string, InternalProvider>, adapter: Adapter): void {
  const signUp = [...providers.values()].filter(
    (provider) => isWebAuthnProvider(provider) && provider.signUp === true,
  )
  if (signUp.length === 0) return
  const canMail =
    passwordProviderOf(providers)?.settings.sendMail !== undefined ||
    [...providers.values()].some(
      (provider) => isEmailProvider(provider) && typeof provider.sendMail === "function",
    )
  if (!canMail) {
    throw new InvalidProvider(
      `"${signUp[0]!.id}" has signUp on, which mails a code: add an email provider (Nodemailer, Resend, …) or a Password provider with sendMail.`,
    )
  }
  requireMethods(
    adapter,
    ["getUserByEmail", "createVerificationToken", "useVerificationToken"],
    "passkey sign-up",
  )
}

/** Throws the configuration error of the WebAuthn providers; returns the warnings to print. */
export function assertWebAuthn(
  providers: Map<string, InternalProvider>,
  options: { enabled: boolean; adapter: Adapter | undefined },
): WarningCode[] {
  const webAuthn = [...providers.values()].filter(isWebAuthnProvider)
  const warnings: WarningCode[] = options.enabled ? ["experimental-webauthn"] : []
  if (webAuthn.length === 0) return warnings
  if (!options.enabled) {
    throw new ExperimentalFeatureNotEnabled(
      `The WebAuthn provider "${webAuthn[0]!.id}" is experimental: set \`experimental: { enableWebAuthn: true }\` to use it.`,
    )
  }
  if (!options.adapter) {
    throw new MissingAdapter("WebAuthn needs an adapter to store its credentials: set `adapter`.")
  }
  requireMethods(options.adapter, WEBAUTHN_ADAPTER_METHODS, "WebAuthn")
  assertSignUp(providers, options.adapter)
  const conditional = webAuthn.filter((provider) => provider.enableConditionalUI)
  if (conditional.length > 1) {
    throw new DuplicateConditionalUI(
      `Only one WebAuthn provider may set enableConditionalUI; ${conditional.map((p) => `"${p.id}"`).join(" and ")} do.`,
    )
  }
  for (const provider of conditional) {
    const autocompletes = Object.values(provider.formFields).flatMap((field) =>
      typeof field?.autocomplete === "string" ? [field.autocomplete.trim()] : [],
    )
    // Without the token anywhere, refused, as Auth.js refuses it.
    if (!autocompletes.some((value) => /(^|\s)webauthn(\s|$)/i.test(value))) {
      throw new MissingWebAuthnAutocomplete(
        `"${provider.id}" enables conditional UI, so one of its formFields needs an autocomplete that ends with "webauthn", after the field's name (e.g. "username webauthn").`,
      )
    }
    // HTML takes `webauthn` as the last token only, after the field's name: browsers ignore
    // "webauthn username", and the autofill never offers a passkey. Auth.js accepts it, so a
    // configuration brought from Auth.js still starts; the log says what to change.
    if (!autocompletes.some((value) => /\S\s+webauthn$/i.test(value))) {
      warnings.push("webauthn-autocomplete-order")
    }
  }
  return warnings
}
