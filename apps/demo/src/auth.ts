// The Latch configuration of the demo. AUTH_SECRET comes from .env (written by `npm run demo`);
// the local OpenID Provider's issuer, id and secret (AUTH_LOCAL_OP_*) from the demo command.
import { env } from "$env/dynamic/private"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"
import { verifyPassword } from "$lib/users"

function createConfig(): SvelteKitAuthConfig {
  const providers: SvelteKitAuthConfig["providers"] = [
    Credentials({
      name: "Password",
      credentials: {
        username: { label: "Username", placeholder: "alice", autocomplete: "username" },
        password: { label: "Password", type: "password" },
      },
      authorize: ({ username, password }) => verifyPassword(username, password),
    }),
  ]
  // An OpenID Connect provider: issuer, client id and secret come from AUTH_LOCAL_OP_ISSUER,
  // AUTH_LOCAL_OP_ID and AUTH_LOCAL_OP_SECRET.
  if (env.AUTH_LOCAL_OP_ISSUER) {
    providers.unshift({ id: "local-op", name: "Local OpenID Provider", type: "oidc" })
  }
  return {
    theme: { brandColor: "#4f46e5", colorScheme: "auto" },
    providers,
    callbacks: {
      jwt({ token, trigger, session }) {
        // updateSession({ name }) from the profile page: validate what the client sent.
        if (trigger === "update" && typeof session?.name === "string") {
          const name = session.name.trim().slice(0, 80)
          if (name) token.name = name
        }
        return token
      },
      session({ session, token }) {
        if (session.user && token?.sub) session.user.id = token.sub
        return session
      },
    },
  }
}

// Lazy: built on the first request (when the runtime environment is readable), then reused —
// the same object each time, so Latch prepares it once.
let config: SvelteKitAuthConfig | undefined
export const { handle, signIn, signOut } = SvelteKitAuth(() => (config ??= createConfig()))
