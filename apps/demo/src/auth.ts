// The Latch configuration of the demo. AUTH_SECRET comes from .env (written by `npm run demo`).
import { SvelteKitAuth } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"
import { verifyPassword } from "$lib/users"

export const { handle, signIn, signOut } = SvelteKitAuth({
  theme: { brandColor: "#4f46e5", colorScheme: "auto" },
  providers: [
    Credentials({
      name: "Password",
      credentials: {
        username: { label: "Username", placeholder: "alice", autocomplete: "username" },
        password: { label: "Password", type: "password" },
      },
      authorize: ({ username, password }) => verifyPassword(username, password),
    }),
  ],
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
})
