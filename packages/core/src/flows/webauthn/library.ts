/**
 * `@simplewebauthn/server`, loaded only when a WebAuthn action runs, with the provider's own
 * replacements (`simpleWebAuthn`) taking precedence. The package is an optional peer: apps
 * without passkeys do not install it.
 */
import { InvalidProvider } from "../../errors.js"
import type { SimpleWebAuthnMethods, WebAuthnConfig } from "../../providers/webauthn.js"

const METHODS = [
  "generateRegistrationOptions",
  "generateAuthenticationOptions",
  "verifyRegistrationResponse",
  "verifyAuthenticationResponse",
] as const

let loaded: Promise<Partial<SimpleWebAuthnMethods>> | undefined

async function loadPackage(): Promise<Partial<SimpleWebAuthnMethods>> {
  try {
    return (await import("@simplewebauthn/server")) as Partial<SimpleWebAuthnMethods>
  } catch (error) {
    loaded = undefined
    throw new InvalidProvider(
      "WebAuthn needs the @simplewebauthn/server package: install it next to @latch/core (e.g. `pnpm add @simplewebauthn/server`).",
      { cause: error },
    )
  }
}

/** The four functions WebAuthn uses, from the provider or the package. */
export async function simpleWebAuthn(provider: WebAuthnConfig): Promise<SimpleWebAuthnMethods> {
  const own = provider.simpleWebAuthn ?? {}
  if (METHODS.every((method) => typeof own[method] === "function")) {
    return own as SimpleWebAuthnMethods
  }
  const library = await (loaded ??= loadPackage())
  const methods = {} as SimpleWebAuthnMethods
  for (const method of METHODS) {
    const implementation = own[method] ?? library[method]
    if (typeof implementation !== "function") {
      throw new InvalidProvider(`@simplewebauthn/server has no ${method}: install version 13 or 14`)
    }
    methods[method] = implementation
  }
  return methods
}
