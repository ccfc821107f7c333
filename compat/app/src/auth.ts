import { SvelteKitAuth, type DefaultSession, type SvelteKitAuthConfig } from "@auth/sveltekit"
import type { JWT } from "@auth/core/jwt"
import type { Account, Profile, Session, User } from "@auth/core/types"
import type { AdapterUser } from "@auth/core/adapters"
import { env } from "$env/dynamic/private"
import { MemoryAdapter } from "$lib/server/memory-adapter"
import { providers } from "$lib/server/providers"

declare module "@auth/core/types" {
  interface Session {
    user: { id: string; role?: string } & DefaultSession["user"]
  }
  interface User {
    role?: string
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    role?: string
    provider?: string
  }
}

/** The store lives as long as the server: both servers run the same flows from empty. */
const adapter = MemoryAdapter()

/** Sign-ins seen, for the log. */
export const signIns: { user: User | AdapterUser; account: Account | null; profile?: Profile }[] =
  []

export const { handle, signIn, signOut } = SvelteKitAuth(async () => {
  const config: SvelteKitAuthConfig = {
    adapter,
    providers: providers({
      OIDC_ISSUER: env.OIDC_ISSUER,
      OIDC_CLIENT_ID: env.OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET,
      SMTP_PORT: env.SMTP_PORT,
    }),
    session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
    trustHost: true,
    experimental: { enableWebAuthn: true },
    callbacks: {
      async signIn({ user, account, email }) {
        if (email?.verificationRequest && user.email?.endsWith("@blocked.example")) return false
        return Boolean(account)
      },
      async jwt({ token, user, account, trigger, session }) {
        if (trigger === "signIn" || trigger === "signUp") {
          token.role = user.role ?? "user"
          token.provider = account?.provider
        }
        if (trigger === "update" && typeof session?.name === "string") token.name = session.name
        return token
      },
      async session({ session, token }) {
        session.user.id = token.sub!
        session.user.role = token.role
        return session
      },
      async redirect({ url, baseUrl }) {
        if (url.startsWith("/")) return `${baseUrl}${url}`
        return new URL(url).origin === baseUrl ? url : baseUrl
      },
    },
    events: {
      async signIn({ user, account, profile }) {
        signIns.push({ user, account: account ?? null, profile })
      },
    },
    logger: {
      error(error) {
        console.error(`[auth] ${error.name}: ${error.message}`)
      },
      warn(code) {
        if (code !== "experimental-webauthn") console.warn(`[auth] warning: ${code}`)
      },
    },
  }
  return config
})

/** The session type the pages see. */
export type AppSession = Session
/** The token type the API route sees. */
export type AppToken = JWT
