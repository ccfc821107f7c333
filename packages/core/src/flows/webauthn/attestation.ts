/**
 * A registration under an attestation policy: which authenticator model made the credential,
 * and whether its maker vouches for it. Runs after `@simplewebauthn/server` has verified the
 * attestation statement's signature (with the certificate or the credential's own key), on the
 * same attestation object.
 *
 * The chain is checked here against the policy's own statements, with the package's pure
 * helpers, rather than through its `MetadataService`: that service is one per process, so two
 * configurations (two sites, two tenants, a test and the app) would see each other's statements,
 * and it downloads the MDS BLOB itself where Latch is given the statements. Nothing here fetches
 * a statement; the helper that validates a chain does fetch a certificate revocation list that a
 * certificate under the deployer's roots names (and passes when it cannot be reached).
 */
import { InvalidProvider } from "../../errors.js"
import type { WebAuthnConfig } from "../../providers/webauthn.js"
import { attestationPolicy, NO_MODEL, pem, type KnownModel } from "./attestation-policy.js"
import {
  simpleWebAuthnHelpersLoader,
  type SimpleWebAuthnHelpers,
  type SimpleWebAuthnHelpersLoader,
} from "./loader.js"
import { decodeBase64url } from "../../lib/base64url.js"
import { toBase64 } from "./encoding.js"
import { refuse, type CredentialResponse } from "./response.js"

/** The MDS3 AuthenticatorStatus values after which a model's attestations prove nothing. */
const UNTRUSTED_STATUSES = new Set([
  "USER_VERIFICATION_BYPASS",
  "ATTESTATION_KEY_COMPROMISE",
  "USER_KEY_REMOTE_COMPROMISE",
  "USER_KEY_PHYSICAL_COMPROMISE",
  "REVOKED",
])

async function helpers(provider: WebAuthnConfig): Promise<SimpleWebAuthnHelpers> {
  const load = (provider as { [simpleWebAuthnHelpersLoader]?: SimpleWebAuthnHelpersLoader })[
    simpleWebAuthnHelpersLoader
  ]
  let loaded: Partial<SimpleWebAuthnHelpers> | undefined
  let cause: unknown
  if (typeof load === "function") {
    try {
      loaded = await load()
    } catch (error) {
      cause = error
    }
  }
  if (
    typeof loaded?.decodeAttestationObject !== "function" ||
    typeof loaded.validateCertificatePath !== "function"
  ) {
    throw new InvalidProvider(
      `The attestation policy of "${provider.id}" needs @simplewebauthn/server/helpers (version 13 or 14 of @simplewebauthn/server) and a provider made by WebAuthn() or Passkey()`,
      { cause },
    )
  }
  return loaded as SimpleWebAuthnHelpers
}

/** The AAGUID in authenticator data with attested credential data (WebAuthn §6.5.1). */
function aaguidOf(authData: Uint8Array): string {
  const hex = [...authData.subarray(37, 53)]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const toPem = (der: Uint8Array) => pem(toBase64(der))

const samePem = (a: string, b: string) => a.replace(/\s/g, "") === b.replace(/\s/g, "")

/** The attestation's certificates must lead to one of the model's roots. */
async function checkChain(
  library: SimpleWebAuthnHelpers,
  model: KnownModel,
  x5c: Uint8Array[],
): Promise<void> {
  // Some authenticators send their root at the end of x5c; as a trust anchor it is ours already.
  const chain = x5c.map(toPem).filter((cert) => !model.roots.some((root) => samePem(root, cert)))
  if (chain.length === 0) return // the attestation certificate is itself a root of the statement
  try {
    await library.validateCertificatePath(chain, model.roots)
  } catch (error) {
    refuse(
      "attestation",
      `The attestation certificate does not lead to a root of ${model.name}'s statement`,
      error,
    )
  }
}

/** Refuses a registration the provider's attestation policy does not allow; no policy, no check. */
export async function checkAttestation(
  provider: WebAuthnConfig,
  response: CredentialResponse,
): Promise<void> {
  const policy = attestationPolicy(provider)
  if (!policy) return
  const library = await helpers(provider)
  const encoded = response.response.attestationObject
  const bytes = typeof encoded === "string" ? decodeBase64url(encoded) : null
  if (!bytes) refuse("invalid-response", "The response has no attestation object")
  const attestation = library.decodeAttestationObject(bytes)
  const fmt = attestation.get("fmt")
  if (fmt === "none") {
    refuse("attestation", "The authenticator sent no attestation (it, or the browser, withheld it)")
  }
  const aaguid = aaguidOf(attestation.get("authData"))
  if (aaguid === NO_MODEL) {
    refuse("attestation", `The authenticator names no model (fmt "${fmt}", all-zero AAGUID)`)
  }
  if (policy.aaguids && !policy.aaguids.has(aaguid)) {
    refuse("attestation", `The authenticator model ${aaguid} is not in attestation.aaguids`)
  }
  if (!policy.models) return

  const model = policy.models.get(aaguid)
  if (!model) refuse("attestation", `No metadata statement describes the model ${aaguid}`)
  const status = model.statuses.find((reported) => UNTRUSTED_STATUSES.has(reported))
  if (status) refuse("attestation", `${model.name} is reported ${status} in its metadata`)
  const x5c = attestation.get("attStmt").get("x5c")
  if (x5c && x5c.length > 0) return checkChain(library, model, x5c)
  // Without certificates the statement is signed by the credential's own key: it proves the
  // key, not the model. Acceptable only from a model whose maker says that is how it attests.
  if (fmt === "packed" && model.attestationTypes.includes("basic_surrogate")) return
  refuse(
    "attestation",
    `The authenticator sent a ${fmt === "packed" ? "self" : `"${fmt}"`} attestation without a certificate chain, which ${model.name}'s statement does not allow`,
  )
}
