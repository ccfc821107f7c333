// `App.Locals.auth()` and `App.PageData.session` are declared by @latch/sveltekit; extend the
// session's type here.
import "@latch/sveltekit"

declare module "@latch/sveltekit" {
  interface Session {
    user?: { id?: string; name?: string | null; email?: string | null; image?: string | null }
  }
}

export {}
