import { SvelteKitAuth } from "@auth/sveltekit"
import Nodemailer from "@auth/sveltekit/providers/nodemailer"
import { DatabaseAdapter } from "$lib/server/db"

declare module "@auth/core/types" {
  interface User {
    role?: string
  }
}

/** Created once: the configuration below is made again for every request. */
const adapter = DatabaseAdapter()

// Configured per request from the platform's bindings (as on Cloudflare, where secrets are not
// in the process's environment).
export const { handle, signIn, signOut } = SvelteKitAuth(async (event) => {
  const env = event.platform?.env
  return {
    adapter,
    secret: env?.AUTH_SECRET,
    trustHost: true,
    session: { strategy: "database", maxAge: 30 * 24 * 60 * 60 },
    providers: [
      Nodemailer({
        server: `smtp://127.0.0.1:${env?.SMTP_PORT}`,
        from: "Compat DB App <no-reply@example.com>",
      }),
      {
        id: "oidc",
        name: "Local OP",
        type: "oidc",
        issuer: env?.OIDC_ISSUER,
        clientId: env?.OIDC_CLIENT_ID,
        clientSecret: env?.OIDC_CLIENT_SECRET,
      },
    ],
    callbacks: {
      // The adapter's user, with its columns, is what the session shows, its role included.
      async session({ session, user }) {
        session.user.role = user.role
        return session
      },
    },
    logger: {
      error(error) {
        console.error(`[auth] ${error.name}: ${error.message}`)
      },
    },
  }
})
