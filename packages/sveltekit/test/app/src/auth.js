// The app is JavaScript: the package's tsconfig includes test/, and from here (a directory with
// its own package.json, which adapter-node needs) TypeScript cannot resolve `@latch/sveltekit`;
// Vite does, through the alias in vite.config.ts.
import { SvelteKitAuth } from "@latch/sveltekit"
import Credentials from "@latch/sveltekit/providers/credentials"

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "alice" && password === "wonderland"
          ? { id: "u1", name: "Alice", email: "alice@example.com" }
          : username === "bob" && password === "builder"
            ? { id: "u2", name: "Bob", email: "bob@example.com" }
            : null,
    }),
  ],
  callbacks: {
    // `updateSession({ name })` from the client renames the user.
    jwt({ token, trigger, session }) {
      if (trigger === "update" && typeof session?.name === "string") token.name = session.name
      return token
    },
  },
})
