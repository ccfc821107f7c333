import { Walker, transforms, type AstTypes } from "@sveltejs/sv-utils"
import { PROTECTED_PATH, SIGN_IN_PATH } from "./templates/routes.js"

/** Latch's hook and the guard after it, as one `Handle`. */
const LATCH_HANDLE = `sequence(latchHandle, protect(["${PROTECTED_PATH}"], { signIn: "${SIGN_IN_PATH}" }))`

/** `src/hooks.server.ts` for an app that has none. */
export const newHooks = `import { protect } from "@latch/sveltekit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as latchHandle } from "./auth"

// Latch's hook first: it answers /auth/* and gives every load and action \`locals.auth()\`. Then
// the guard: an anonymous visitor of ${PROTECTED_PATH} (and everything below it) is sent to
// ${SIGN_IN_PATH}?callbackUrl=…
export const handle = ${LATCH_HANDLE}
`

/**
 * Adds Latch to an existing `src/hooks.server.*`: its `handle` becomes
 * `sequence(latch, <the app's handle>)`, Latch's first so that the app's hooks can call
 * `locals.auth()`. Run twice, it changes nothing.
 */
export function mergeHooks(language: "ts" | "js") {
  return transforms.script(({ ast, comments, js }) => {
    if (js.imports.find(ast, { name: "handle", from: "./auth" }).statement) return false
    js.imports.addNamed(ast, { from: "./auth", imports: { handle: "latchHandle" } })
    js.imports.addNamed(ast, { from: "@latch/sveltekit", imports: ["protect"] })
    js.imports.addNamed(ast, { from: "@sveltejs/kit/hooks", imports: ["sequence"] })
    js.kit.addHooksHandle(ast, {
      language,
      newHandleName: "latch",
      handleContent: LATCH_HANDLE,
      comments,
    })
    moveFirst(ast, "latch")
  })
}

/** In the `sequence(…)` that lists `name`, puts it first. */
function moveFirst(ast: AstTypes.Program, name: string) {
  Walker.walk(ast as AstTypes.Node, null, {
    CallExpression(node: AstTypes.CallExpression, { next }: { next: () => void }) {
      const callee = node.callee
      if (callee.type === "Identifier" && callee.name === "sequence") {
        const index = node.arguments.findIndex((a) => a.type === "Identifier" && a.name === name)
        if (index > 0) node.arguments.unshift(...node.arguments.splice(index, 1))
      }
      next()
    },
  })
}

/** `export * from "@latch/drizzle-adapter/<dialect>"` in the app's Drizzle schema. */
export function spreadDrizzleTables(schema: string) {
  return transforms.script(({ ast, js }) => {
    js.exports.addNamespace(ast, { from: `@latch/drizzle-adapter/${schema}` })
  })
}

/** `import "@latch/sveltekit"` in `src/app.d.ts`: it declares `App.Locals.auth()`. */
export const declareLocals = transforms.script(({ ast, js }) => {
  js.imports.addEmpty(ast, { from: "@latch/sveltekit" })
})

/** A link to the protected page on the home page. */
export const linkFromHome = transforms.svelte(({ ast, svelte }) => {
  svelte.addFragment(ast, `<p><a href="${PROTECTED_PATH}">A page for signed-in users</a></p>`)
})
