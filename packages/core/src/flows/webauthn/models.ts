/**
 * The names of common passkey providers by AAGUID, the model id an authenticator puts in its
 * registration: what a new passkey is called until its owner renames it ("iCloud Keychain" says
 * more than "Passkey" on a list of three).
 *
 * A short list of our own rather than a package: it covers the password managers and platforms
 * that make nearly every passkey (the full FIDO metadata adds hundreds of security-key variants
 * that a user names better themselves), weighs about a kilobyte in every bundle, and changes when
 * a new password manager ships passkeys — rarely. The AAGUIDs are the ones each vendor publishes
 * (collected in the community's passkey-authenticator-aaguids list).
 */
const MODELS: Readonly<Record<string, string>> = {
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
  "b5397666-4885-aa6b-cebf-e52262a439a2": "Chromium Browser",
  "771b48fd-d3d4-4f74-9232-fc157ab0507a": "Edge on Mac",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "d3452668-01fd-4c12-926c-83a4204853aa": "Microsoft Password Manager",
  "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
  "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
  "b84e4048-15dc-4dd0-8640-f4f60813c8af": "NordPass",
  "b78a0a55-6ef8-d246-a042-ba0f6d55050c": "LastPass",
  "0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6": "Keeper",
  "f3809540-7f14-49c1-a8b3-8f813b225541": "Enpass",
  "50726f74-6f6e-5061-7373-50726f746f6e": "Proton Pass",
  "fdb141b2-5d84-443e-8a35-4698c205a502": "KeePassXC",
  "eaecdef2-1c31-5634-8639-f1cbd9c00a08": "KeePassDX",
  "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5",
  "ee882879-721c-4913-9775-3dfcce97072a": "YubiKey 5",
  "fa2b99dc-9e39-4257-8f92-4a30d23c4118": "YubiKey 5 NFC",
  "2fc0579f-8113-47ea-b116-bb5a8db9202a": "YubiKey 5 NFC",
  "a25342c0-3cdc-4414-8e46-f4807fca511c": "YubiKey 5 NFC",
  "d7781e5d-e353-46aa-afe2-3ca49f13332a": "YubiKey 5 NFC",
  "42b4fb4a-2866-43b2-9bf7-6c6669c2e5d3": "Google Titan Security Key",
}

/** The AAGUID an authenticator sends when it names no model (`none` attestation, privacy). */
export const ZERO_AAGUID = "00000000-0000-0000-0000-000000000000"

const AAGUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** An AAGUID as stored: lowercase with dashes; `null` for none, the zero one, or not one. */
export function storedAaguid(aaguid: string | null | undefined): string | null {
  const normal = aaguid?.toLowerCase()
  return normal && AAGUID.test(normal) && normal !== ZERO_AAGUID ? normal : null
}

/** The model's name for an AAGUID, when it is one of the common ones. */
export function modelName(aaguid: string | null | undefined): string | null {
  const normal = storedAaguid(aaguid)
  return (normal && MODELS[normal]) ?? null
}
