import type { Plan } from "../plan.js"

/** The path `protect()` guards, and the page that shows who is signed in. */
export const PROTECTED_PATH = "/protected"
/** The app's own sign-in page, where `protect()` sends anonymous visitors. */
export const SIGN_IN_PATH = "/signin"

/** The routes the add-on writes, by path under `src/routes`. */
export function routeFiles(plan: Plan): Record<string, string> {
  return {
    "signin/+page.server.ts": signInServer,
    "signin/+page.svelte": signInPage(plan),
    "signout/+page.server.ts": signOutServer,
    "protected/+page.server.ts": protectedServer,
    "protected/+page.svelte": protectedPage,
  }
}

const signInServer = `import { AuthError, CredentialsSignin } from "@latch/sveltekit"
import { fail, type Actions } from "@sveltejs/kit"
import { signIn } from "../../auth"
import type { PageServerLoad } from "./$types"

// protect() sends visitors here with ?callbackUrl= (where they were going); signIn's redirect
// callback keeps it on this site.
export const load: PageServerLoad = ({ url }) => ({
  callbackUrl: url.searchParams.get("callbackUrl") ?? "${PROTECTED_PATH}",
})

export const actions: Actions = {
  default: async (event) => {
    try {
      await signIn(event)
    } catch (error) {
      // A refused sign-in is thrown so that the page can say so; the codes are in
      // @latch/sveltekit's README ("Form actions").
      if (error instanceof CredentialsSignin) return fail(400, { code: error.code })
      if (error instanceof AuthError && error.kind === "signIn") {
        return fail(400, { code: error.type })
      }
      throw error // the 303 of a successful sign-in, or a server error
    }
  },
}
`

function signInPage(plan: Plan) {
  const has = (provider: string) => plan.providers.includes(provider as never)
  const forms: string[] = []
  if (has("credentials")) {
    forms.push(`<SignIn provider="credentials" options={{ redirectTo: data.callbackUrl }}>
  {#snippet credentials()}
    <label>Username <input name="username" autocomplete="username" required /></label>
    <label
      >Password <input name="password" type="password" autocomplete="current-password" required
    /></label>
  {/snippet}
  {#snippet submitButton()}Sign in as the demo user{/snippet}
</SignIn>`)
  }
  if (has("password")) {
    forms.push(`<SignIn provider="password" options={{ redirectTo: data.callbackUrl }}>
  {#snippet credentials()}
    <label>Email <input name="email" type="email" autocomplete="username" required /></label>
    <label
      >Password <input name="password" type="password" autocomplete="current-password" required
    /></label>
  {/snippet}
  {#snippet submitButton()}Sign in with your password{/snippet}
</SignIn>
<!-- Latch's built-in pages, outside the app's router: a full page load. -->
<p data-sveltekit-reload>
  <a href="/auth/signup">Create an account</a> ·
  <a href="/auth/reset-password">Forgot your password?</a>
</p>`)
  }
  if (has("email")) {
    forms.push(`<SignIn provider="nodemailer" options={{ redirectTo: data.callbackUrl }}>
  {#snippet submitButton()}Email me a sign-in link{/snippet}
</SignIn>`)
  }
  if (has("github")) {
    forms.push(`<SignIn provider="github" options={{ redirectTo: data.callbackUrl }}>
  {#snippet submitButton()}Sign in with GitHub{/snippet}
</SignIn>`)
  }
  return `<script lang="ts">
  import { SignIn } from "@latch/sveltekit/components"

  let { data, form } = $props()
</script>

<h1>Sign in</h1>
{#if form?.code}
  <p role="alert" id="sign-in-error">The sign-in was refused ({form.code}).</p>
{/if}

${forms.join("\n\n")}
`
}

const signOutServer = `import { signOut } from "../../auth"
import type { Actions } from "./$types"

export const actions: Actions = { default: signOut }
`

const protectedServer = `import type { PageServerLoad } from "./$types"

// protect("${PROTECTED_PATH}") in src/hooks.server.ts has already sent anonymous visitors to the
// sign-in page: every request that gets here has a session.
export const load: PageServerLoad = async ({ locals }) => {
  const session = await locals.auth()
  return { user: session?.user ?? null }
}
`

const protectedPage = `<script lang="ts">
  import { SignOut } from "@latch/sveltekit/components"

  let { data } = $props()
</script>

<h1>Protected</h1>
<p id="signed-in-as">Signed in as {data.user?.name ?? data.user?.email}</p>
<SignOut options={{ redirectTo: "/" }} />
`
