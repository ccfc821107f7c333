// Latch for this app: a Credentials user (alice) and password accounts (`Password`), with JWT
// sessions. AUTH_SECRET and AUTH_URL come from the platform's environment (see docs/deploying).
import { env } from "$env/dynamic/private"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"
import Password from "@latch/sveltekit/providers/password"
import { emptyStore, memoryAdapter } from "$lib/server/memory-adapter"
import { checkDemoUser } from "$lib/server/users"

// One store per server process (per Worker isolate on Cloudflare): an account made on one
// isolate is unknown to the others. Fine for a demo; a deployment uses a database adapter.
const store = emptyStore()

/**
 * An account whose password hash was made elsewhere, for instance on a Node server, when
 * SEED_PASSWORD_HASH holds one (for seed@example.com): a hash made on one runtime signs in on
 * every other.
 */
function seed(hash: string | undefined): void {
  if (!hash || store.users.has("seed")) return
  store.users.set("seed", {
    id: "seed",
    email: "seed@example.com",
    name: "Seeded Account",
    emailVerified: new Date(0),
  })
  store.passwords.set("seed", hash)
}

function config(): SvelteKitAuthConfig {
  seed(env.SEED_PASSWORD_HASH)
  return {
    adapter: memoryAdapter(store),
    // JWT sessions: the session lives in an encrypted cookie, so any isolate can read it.
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        name: "Username and password",
        credentials: {
          username: { label: "Username", autocomplete: "username" },
          password: { label: "Password", type: "password" },
        },
        authorize: ({ username, password }) => checkDemoUser(username, password),
      }),
      Password({
        name: "Email and password",
        // No mail provider in this demo: accounts sign in before their address is confirmed,
        // and the confirming mail goes to the log.
        requireEmailVerification: false,
        sendMail: ({ to, subject }) => console.log(`mail to ${to}: ${subject}`),
      }),
    ],
  }
}

export const { handle, signIn, signOut, signUp } = SvelteKitAuth(config)
