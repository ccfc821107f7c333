// `App.Locals.auth()` and `App.PageData.session` are declared by @latch/sveltekit.
import "@latch/sveltekit"

export {}
