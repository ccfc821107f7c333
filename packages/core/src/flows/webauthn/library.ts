/**
 * `@simplewebauthn/server`, loaded only when a WebAuthn action runs, with the provider's own
 * replacements (`simpleWebAuthn`) taking precedence. The package is an optional peer: apps
 * without passkeys do not install it. Loaded through the provider's own loader
 * (`providers/webauthn.ts`), never named here: this module is part of every app's bundle.
 */
import { InvalidProvider } from "../../errors.js"
import type { SimpleWebAuthnMethods, WebAuthnConfig } from "../../providers/webauthn.js"
import { simpleWebAuthnLoader, type SimpleWebAuthnLoader } from "./loader.js"

const METHODS = [
  "generateRegistrationOptions",
  "generateAuthenticationOptions",
  "verifyRegistrationResponse",
  "verifyAuthenticationResponse",
] as const

/** One load per loader (in practice one: every provider made by `WebAuthn()` shares it). */
const loaded = new WeakMap<SimpleWebAuthnLoader, Promise<Partial<SimpleWebAuthnMethods>>>()

async function loadPackage(load: SimpleWebAuthnLoader): Promise<Partial<SimpleWebAuthnMethods>> {
  try {
    return await load()
  } catch (error) {
    loaded.delete(load) // installed later, or a passing failure: the next ceremony tries again
    throw new InvalidProvider(
      "WebAuthn needs the @simplewebauthn/server package: install it next to @latch/core (e.g. `pnpm add @simplewebauthn/server`).",
      { cause: error },
    )
  }
}

function libraryOf(provider: WebAuthnConfig): Promise<Partial<SimpleWebAuthnMethods>> {
  const load = (provider as { [simpleWebAuthnLoader]?: SimpleWebAuthnLoader })[simpleWebAuthnLoader]
  if (typeof load !== "function") {
    return Promise.reject(
      new InvalidProvider(
        `The WebAuthn provider "${provider.id}" was not made by WebAuthn() or Passkey() (@latch/core/providers/webauthn, /passkey), so nothing loads @simplewebauthn/server for it: create it with one of them, or give it all four functions in \`simpleWebAuthn\`.`,
      ),
    )
  }
  let library = loaded.get(load)
  if (!library) {
    library = loadPackage(load)
    loaded.set(load, library)
  }
  return library
}

/** The four functions WebAuthn uses, from the provider or the package. */
export async function simpleWebAuthn(provider: WebAuthnConfig): Promise<SimpleWebAuthnMethods> {
  const own = provider.simpleWebAuthn ?? {}
  if (METHODS.every((method) => typeof own[method] === "function")) {
    return own as SimpleWebAuthnMethods
  }
  const library = await libraryOf(provider)
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
