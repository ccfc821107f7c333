// `App.Locals.auth()` is declared by @latch/sveltekit; every mode of hooks.server.ts provides it.
import "@latch/sveltekit"

export {}
