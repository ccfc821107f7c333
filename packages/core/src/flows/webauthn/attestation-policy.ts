/**
 * A WebAuthn provider's `attestation` option, checked when the configuration is resolved and
 * turned into what a registration looks up: the allowed AAGUIDs, and the statements by AAGUID.
 * A mistake here (a typo in an AAGUID, an empty list, a PEM where MDS gives base64) would
 * otherwise refuse every registration with nothing but `code=attestation` to show for it.
 */
import type {
  WebAuthnAttestationPolicy,
  WebAuthnConfig,
  WebAuthnMetadataEntry,
  WebAuthnMetadataStatement,
} from "../../types/webauthn.js"

/** A statement as a registration uses it. */
export interface KnownModel {
  aaguid: string
  /** For log messages: the statement's description, or its AAGUID. */
  name: string
  attestationTypes: string[]
  /** The statement's roots, as PEM. */
  roots: string[]
  /** The status reports of an MDS3 entry (none for a bare statement). */
  statuses: string[]
}

/** The policy, ready for registrations. */
export interface AttestationPolicy {
  aaguids?: Set<string>
  models?: Map<string, KnownModel>
}

const AAGUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** The AAGUID of an authenticator that names no model (U2F keys, `none` attestation). */
export const NO_MODEL = "00000000-0000-0000-0000-000000000000"
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

function aaguidOf(value: unknown, where: string): string {
  const aaguid = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (!AAGUID.test(aaguid)) {
    throw new Error(
      `${where} is not an AAGUID (36 characters such as "ee882879-721c-4913-9775-3dfcce97072a")`,
    )
  }
  if (aaguid === NO_MODEL) {
    throw new Error(
      `${where} is the all-zero AAGUID, which names no model: every authenticator that hides its model sends it`,
    )
  }
  return aaguid
}

/** A certificate in base64 DER (as MDS gives it) → PEM, as the chain helper takes it. */
export function pem(der: string): string {
  const lines = der.match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`
}

function modelOf(item: unknown, where: string): KnownModel {
  if (!isObject(item)) throw new Error(`${where} is not a metadata statement`)
  const entry = isObject(item.metadataStatement) ? (item as WebAuthnMetadataEntry) : undefined
  const statement = (entry?.metadataStatement ?? item) as Partial<WebAuthnMetadataStatement>
  if (statement.aaguid === undefined && entry?.aaguid === undefined) {
    throw new Error(
      `${where} has no aaguid: only FIDO2 statements can be used (U2F keys name no model)`,
    )
  }
  const aaguid = aaguidOf(statement.aaguid ?? entry?.aaguid, `${where}.aaguid`)
  if (entry?.aaguid !== undefined && aaguidOf(entry.aaguid, `${where}.aaguid`) !== aaguid) {
    throw new Error(`${where}: the entry's aaguid and its statement's differ`)
  }
  const roots = statement.attestationRootCertificates
  if (!Array.isArray(roots) || roots.length === 0) {
    throw new Error(`${where} has no attestationRootCertificates to verify attestations against`)
  }
  for (const [index, root] of roots.entries()) {
    if (typeof root !== "string" || root.length === 0 || !BASE64.test(root)) {
      throw new Error(
        `${where}.attestationRootCertificates[${index}] is not a certificate in base64 (DER, as MDS gives it: no "-----BEGIN" line, no line breaks)`,
      )
    }
  }
  const types = statement.attestationTypes
  if (!Array.isArray(types) || !types.every((type) => typeof type === "string")) {
    throw new Error(`${where} has no attestationTypes list`)
  }
  const reports = entry?.statusReports ?? []
  if (!Array.isArray(reports)) throw new Error(`${where}.statusReports is not a list`)
  return {
    aaguid,
    name: typeof statement.description === "string" ? statement.description : aaguid,
    attestationTypes: types,
    roots: roots.map(pem),
    statuses: reports.map((report) => String(report?.status)),
  }
}

function modelsOf(metadata: unknown): Map<string, KnownModel> {
  if (!Array.isArray(metadata) || metadata.length === 0) {
    throw new Error("attestation.metadata must be a non-empty list of metadata statements")
  }
  const models = new Map<string, KnownModel>()
  for (const [index, item] of metadata.entries()) {
    const model = modelOf(item, `attestation.metadata[${index}]`)
    if (models.has(model.aaguid)) {
      throw new Error(`attestation.metadata has two statements for ${model.aaguid}`)
    }
    models.set(model.aaguid, model)
  }
  return models
}

function aaguidsOf(aaguids: unknown): Set<string> {
  if (!Array.isArray(aaguids) || aaguids.length === 0) {
    throw new Error(
      "attestation.aaguids must be a non-empty list of AAGUIDs (an empty list would refuse every registration)",
    )
  }
  return new Set(aaguids.map((aaguid, index) => aaguidOf(aaguid, `attestation.aaguids[${index}]`)))
}

/** The policy read from the option, or the message of what is wrong with it. */
function readPolicy(provider: WebAuthnConfig): AttestationPolicy {
  const option: unknown = provider.attestation
  if (!isObject(option)) throw new Error("attestation must be an object: { aaguids?, metadata? }")
  const unknown = Object.keys(option).filter((key) => key !== "aaguids" && key !== "metadata")
  if (unknown.length > 0) {
    throw new Error(
      `attestation has unknown options: ${unknown.join(", ")} (known: aaguids, metadata)`,
    )
  }
  if (option.aaguids === undefined && option.metadata === undefined) {
    throw new Error("attestation needs aaguids, metadata or both")
  }
  const policy: AttestationPolicy = {}
  if (option.aaguids !== undefined) policy.aaguids = aaguidsOf(option.aaguids)
  if (option.metadata !== undefined) policy.models = modelsOf(option.metadata)
  for (const aaguid of policy.aaguids ?? []) {
    if (policy.models && !policy.models.has(aaguid)) {
      throw new Error(
        `attestation.aaguids allows ${aaguid}, which has no statement in attestation.metadata, so it could never register`,
      )
    }
  }
  return policy
}

/** One reading per policy object: the configuration checks it, registrations reuse it. */
const read = new WeakMap<WebAuthnAttestationPolicy, AttestationPolicy>()

/**
 * The provider's attestation policy, or `undefined` for none. Throws an `Error` whose message
 * says what is wrong with the option (the configuration makes it an `InvalidProvider`).
 */
export function attestationPolicy(provider: WebAuthnConfig): AttestationPolicy | undefined {
  const option = provider.attestation
  if (option === undefined) return undefined
  if (provider.registrationOptions?.attestationType === "none") {
    throw new Error(
      'has an attestation policy but asks for no attestation (registrationOptions.attestationType "none"), so every registration would be refused',
    )
  }
  let policy = isObject(option) ? read.get(option) : undefined
  if (!policy) {
    policy = readPolicy(provider)
    read.set(option, policy)
  }
  return policy
}
