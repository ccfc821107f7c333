import { CredentialsSignin, EmailSignInError, SignInError } from "@latch/sveltekit"
import { fail } from "@sveltejs/kit"
import { postedForm } from "$lib/server/form"
import { demoPasswordAccounts, signIn } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ locals, url, fetch }) => {
  const session = await locals.auth()
  // Every provider but the forms (passwords, email, passkey), for a <SignIn/> button each.
  const providers = (await (await fetch("/auth/providers")).json()) as Record<
    string,
    { id: string; name: string; type: string }
  >
  return {
    signedInAs: session?.user?.name ?? null,
    callbackUrl: url.searchParams.get("callbackUrl") ?? "/",
    providers: Object.values(providers).filter(
      (provider) => !["credentials", "email", "webauthn"].includes(provider.type),
    ),
    emailProvider: Object.values(providers).find((provider) => provider.type === "email") ?? null,
    // Password accounts (`Password()`, a credentials provider whose checking Latch does).
    passwordProvider: providers.password ?? null,
    // Passkey-first sign-up (`Passkey({ signUp: true })`, on when the demo can send mail):
    // core's page, coming back to where this sign-in was going.
    passkeySignUp: demoPasswordAccounts()
      ? `/auth/passkey-signup/passkey?${new URLSearchParams({ callbackUrl: url.searchParams.get("callbackUrl") ?? "/" })}`
      : null,
  }
}

export const actions: Actions = {
  // The server-side form action: a refused password comes back as an inline message.
  default: async (event) => {
    const form = await postedForm(event.request.clone())
    try {
      await signIn(event)
    } catch (error) {
      if (error instanceof CredentialsSignin && form.get("providerId") === "password") {
        // The password accounts' form: `credentials`, `unverified` (the address is not
        // confirmed yet) or `rate_limited`.
        return fail(400, {
          passwordCode: error.code,
          passwordEmail: String(form.get("email") ?? ""),
          callbackUrl: String(form.get("redirectTo") ?? "/"),
        })
      }
      if (error instanceof CredentialsSignin) {
        return fail(400, {
          code: error.code,
          username: String(form.get("username") ?? ""),
          // The form posted to /signin without the page's query: keep where the user was going.
          callbackUrl: String(form.get("redirectTo") ?? "/"),
        })
      }
      if (error instanceof EmailSignInError) {
        // Not one plain address, or the mail could not be sent.
        return fail(400, {
          emailError: true,
          email: String(form.get("email") ?? ""),
          callbackUrl: String(form.get("redirectTo") ?? "/"),
        })
      }
      if (error instanceof SignInError) {
        // Any other refused sign-in (a passkey posted to the form without its challenge).
        return fail(400, { code: "signin", username: "", callbackUrl: "/" })
      }
      throw error
    }
  },
}
