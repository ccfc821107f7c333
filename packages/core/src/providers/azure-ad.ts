/**
 * Sign in with Azure Active Directory: the former name of Microsoft Entra ID, kept for existing
 * configurations.
 *
 * @deprecated Use `@latch/core/providers/microsoft-entra-id`.
 * @module providers/azure-ad
 */
import type { OAuthConfig, OIDCConfig } from "./index.js"
import MicrosoftEntraID, {
  type MicrosoftEntraIDOptions,
  type MicrosoftEntraIDProfile,
} from "./microsoft-entra-id.js"

/** The profile: Microsoft Entra ID's. */
export type AzureADProfile = MicrosoftEntraIDProfile

let warned = false

/**
 * Adds Azure Active Directory sign-in: Microsoft Entra ID under the id `azure-ad`.
 *
 * It takes the options of `MicrosoftEntraID()` (`tenantId`, `profilePhotoSize`, `issuer`) and
 * reads `AUTH_AZURE_AD_ID`, `AUTH_AZURE_AD_SECRET` and `AUTH_AZURE_AD_ISSUER`
 * (`https://login.microsoftonline.com/<tenant ID>/v2.0`); the redirect URI is
 * `https://example.com/auth/callback/azure-ad`. The account's id is the ID token's `sub`, as for
 * `microsoft-entra-id`.
 *
 * The first call warns once: import `MicrosoftEntraID` from
 * `@latch/core/providers/microsoft-entra-id` instead, with `id: "azure-ad"` to keep the same
 * callback URL, variables and linked accounts.
 *
 * @deprecated Use `@latch/core/providers/microsoft-entra-id`.
 * @example
 * ```ts
 * import MicrosoftEntraID from "@latch/core/providers/microsoft-entra-id"
 *
 * export const config = { providers: [MicrosoftEntraID({ id: "azure-ad" })] }
 * ```
 */
export default function AzureAD<P extends AzureADProfile = AzureADProfile>(
  options: MicrosoftEntraIDOptions<P> = {},
): OAuthConfig<P> | OIDCConfig<P> {
  if (!warned) {
    warned = true
    console.warn(
      '[latch][warn] azure-ad-provider-deprecated: Azure Active Directory is now Microsoft Entra ID. Import MicrosoftEntraID from "@latch/core/providers/microsoft-entra-id" instead (its id is "microsoft-entra-id": pass `id: "azure-ad"` to keep your callback URL, AUTH_AZURE_AD_* variables and linked accounts).',
    )
  }
  // The finishing step rebuilds the provider for its audience and keeps what differs from the
  // object it built, so the id and name below survive it.
  const provider = MicrosoftEntraID<P>(options)
  return {
    ...provider,
    id: options.id ?? "azure-ad",
    name: options.name ?? "Azure Active Directory",
  }
}
