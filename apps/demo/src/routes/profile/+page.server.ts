import { redirect } from "@sveltejs/kit"
import { demoAdapter } from "../../auth"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) redirect(303, `/signin?${new URLSearchParams({ callbackUrl: url.pathname })}`)
  // The user's passkeys, as the adapter stores them (never their keys: only what to show).
  const adapter = await demoAdapter()
  const id = session.user.id
  const passkeys = id ? ((await adapter.listAuthenticatorsByUserId?.(id)) ?? []) : []
  return {
    user: session.user,
    passkeys: passkeys.map((passkey) => ({
      id: passkey.credentialID,
      synced: passkey.credentialBackedUp,
      uses: passkey.counter,
    })),
  }
}
