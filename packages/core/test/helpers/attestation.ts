/**
 * Attestation for the software authenticator: a maker's certificate authority (a root, an
 * optional intermediate, and a batch attestation certificate carrying the model's AAGUID, made
 * with @peculiar/x509 on Web Crypto), packed statements signed by it (WebAuthn §8.2), packed
 * self attestation (signed by the credential's own key), and the FIDO metadata statement a
 * deployer would download for the model.
 */
// @peculiar/x509 needs the Reflect metadata API (its dependency injection), as in
// @simplewebauthn/server, which loads the same polyfill.
import "reflect-metadata"
import { KeyObject, sign, webcrypto } from "node:crypto"
import * as x509 from "@peculiar/x509"
import type { Attester, CBORValue } from "./authenticator.js"

x509.cryptoProvider.set(webcrypto as Crypto)

const ES256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const
/** id-fido-gen-ce-aaguid: the model's AAGUID in an attestation certificate. */
const AAGUID_EXTENSION = "1.3.6.1.4.1.45724.1.1.4"

const day = 24 * 60 * 60 * 1000
let serial = 1

function aaguidBytes(aaguid: string): Buffer {
  return Buffer.from(aaguid.replace(/-/g, ""), "hex")
}

function keys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ES256, true, ["sign", "verify"]) as Promise<CryptoKeyPair>
}

/** A certificate authority, signing certificates under its own name. */
interface Authority {
  certificate: x509.X509Certificate
  keys: CryptoKeyPair
}

async function issue(
  issuer: Authority,
  subject: string,
  publicKey: CryptoKey,
  extensions: x509.Extension[],
): Promise<x509.X509Certificate> {
  return x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    subject,
    issuer: issuer.certificate.subject,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + 365 * day),
    signingAlgorithm: ES256,
    publicKey,
    signingKey: issuer.keys.privateKey,
    extensions,
  })
}

/** A maker's attestation hierarchy for one model. */
export interface Maker {
  aaguid: string
  root: x509.X509Certificate
  /** Root first-out: leaf, then any intermediate (the statement's x5c order). */
  chain: x509.X509Certificate[]
  attestationKey: KeyObject
}

/** A root (and with `intermediate`, a CA under it) and a batch certificate for `aaguid`. */
export async function maker(
  aaguid: string,
  options: { intermediate?: boolean; name?: string } = {},
): Promise<Maker> {
  const name = options.name ?? "Test Maker"
  const rootKeys = await keys()
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    name: `CN=${name} Root CA, O=${name}, C=SE`,
    notBefore: new Date(Date.now() - day),
    notAfter: new Date(Date.now() + 3650 * day),
    signingAlgorithm: ES256,
    keys: rootKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  })
  let issuer: Authority = { certificate: root, keys: rootKeys }
  const chain: x509.X509Certificate[] = []
  if (options.intermediate) {
    const caKeys = await keys()
    const ca = await issue(issuer, `CN=${name} Attestation CA, O=${name}, C=SE`, caKeys.publicKey, [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ])
    chain.push(ca)
    issuer = { certificate: ca, keys: caKeys }
  }
  const leafKeys = await keys()
  // The subject WebAuthn §8.2.1 asks of a packed attestation certificate.
  const leaf = await issue(
    issuer,
    `C=SE, O=${name}, OU=Authenticator Attestation, CN=${name} Batch`,
    leafKeys.publicKey,
    [
      new x509.BasicConstraintsExtension(false, undefined, true),
      // OCTET STRING (16 bytes) holding the AAGUID.
      new x509.Extension(
        AAGUID_EXTENSION,
        false,
        Buffer.concat([Buffer.from([0x04, 0x10]), aaguidBytes(aaguid)]),
      ),
    ],
  )
  chain.unshift(leaf)
  return { aaguid, root, chain, attestationKey: KeyObject.from(leafKeys.privateKey) }
}

/** Packed attestation with the maker's batch certificate (and `withRoot`: the root in x5c). */
export function packed(made: Maker, options: { withRoot?: boolean } = {}): Attester {
  const x5c = [...made.chain, ...(options.withRoot ? [made.root] : [])].map(
    (cert) => new Uint8Array(cert.rawData),
  )
  return {
    aaguid: aaguidBytes(made.aaguid),
    statement: (signed) => ({
      fmt: "packed",
      attStmt: new Map<CBORValue, CBORValue>([
        ["alg", -7],
        ["sig", sign("sha256", signed, { key: made.attestationKey, dsaEncoding: "der" })],
        ["x5c", x5c],
      ]),
    }),
  }
}

/** Packed self attestation: the credential's own key signs, claiming the model `aaguid`. */
export function self(aaguid: string): Attester {
  return {
    aaguid: aaguidBytes(aaguid),
    statement: (signed, credentialKey) => ({
      fmt: "packed",
      attStmt: new Map<CBORValue, CBORValue>([
        ["alg", -7],
        ["sig", sign("sha256", signed, { key: credentialKey, dsaEncoding: "der" })],
      ]),
    }),
  }
}

/** No attestation, but a model named in the authenticator data (as a browser may pass it on). */
export function none(aaguid: string): Attester {
  return { aaguid: aaguidBytes(aaguid), statement: () => ({ fmt: "none", attStmt: new Map() }) }
}

/** The model's MDS3 metadata statement, as a deployer downloads it (the fields that matter). */
export function statement(
  made: Maker,
  attestationTypes: string[] = ["basic_full"],
): {
  aaguid: string
  description: string
  attestationTypes: string[]
  attestationRootCertificates: string[]
  schema: number
} {
  return {
    aaguid: made.aaguid,
    description: `Key ${made.aaguid.slice(0, 8)}`,
    attestationTypes,
    attestationRootCertificates: [Buffer.from(made.root.rawData).toString("base64")],
    schema: 3,
  }
}
