import { transforms, type AstTypes } from "@sveltejs/sv-utils"
import { PROTECTED_PATH, SIGN_IN_PATH } from "./templates/routes.js"

/** Latch's hook and the guard after it, as `sequence` arguments. */
const LATCH_HOOKS = `latchHandle, protect(["${PROTECTED_PATH}"], { signIn: "${SIGN_IN_PATH}" })`

/** `src/hooks.server.ts` for an app that has none. */
export const newHooks = `import { protect } from "@latch/sveltekit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as latchHandle } from "./auth"

// Latch's hook first: it answers /auth/* and gives every load and action \`locals.auth()\`. Then
// the guard: an anonymous visitor of ${PROTECTED_PATH} (and everything below it) is sent to
// ${SIGN_IN_PATH}?callbackUrl=…
export const handle = sequence(${LATCH_HOOKS})
`

/**
 * Adds Latch to an existing `src/hooks.server.*`: its `handle` becomes
 * `sequence(latchHandle, protect(…), <the app's handle>)`, Latch's first so that the app's hooks
 * can call `locals.auth()`. A `handle` that is already a `sequence(…)` gets the two in front.
 * Run twice, it changes nothing.
 *
 * (sv-utils' `addHooksHandle` is not used: given a `handle` that is already a `sequence`, it
 * adds the new hook to it and then wraps that sequence once more, before the new hook is
 * declared.)
 */
export function mergeHooks() {
  return transforms.script(({ ast, js }) => {
    if (js.imports.find(ast, { name: "handle", from: "./auth" }).statement) return false
    js.imports.addNamed(ast, { from: "./auth", imports: { handle: "latchHandle" } })
    js.imports.addNamed(ast, { from: "@latch/sveltekit", imports: ["protect"] })
    js.imports.addNamed(ast, { from: "@sveltejs/kit/hooks", imports: ["sequence"] })
    const composed = (app: string) =>
      js.common.parseStatement(`export const handle = sequence(${LATCH_HOOKS}, ${app})`)
    const ours = () =>
      (js.common.parseExpression(`sequence(${LATCH_HOOKS})`) as AstTypes.CallExpression).arguments

    for (const [index, statement] of ast.body.entries()) {
      if (statement.type !== "ExportNamedDeclaration") continue
      const declaration = statement.declaration
      // export const handle = …
      if (declaration?.type === "VariableDeclaration") {
        const declarator = declaration.declarations.find(
          (d) => d.id.type === "Identifier" && d.id.name === "handle",
        )
        if (!declarator) continue
        const init = declarator.init
        if (
          init?.type === "CallExpression" &&
          init.callee.type === "Identifier" &&
          init.callee.name === "sequence"
        ) {
          init.arguments.unshift(...ours())
          return
        }
        if (declaration.declarations.length > 1) {
          throw new Error("src/hooks.server.ts: declare `handle` on its own first, then run again")
        }
        ;(declarator.id as AstTypes.Identifier).name = "appHandle"
        ast.body.splice(index, 1, declaration, composed("appHandle"))
        return
      }
      // export function handle(…) { … }
      if (declaration?.type === "FunctionDeclaration" && declaration.id?.name === "handle") {
        declaration.id.name = "appHandle"
        ast.body.splice(index, 1, declaration, composed("appHandle"))
        return
      }
      // export { handle }, export { mine as handle }, export { handle } from "./elsewhere"
      const specifier = statement.specifiers.find(
        (s) => s.exported.type === "Identifier" && s.exported.name === "handle",
      )
      if (!specifier || specifier.local.type !== "Identifier") continue
      let app = specifier.local.name
      if (statement.source) {
        app = "appHandle"
        js.imports.addNamed(ast, {
          from: String(statement.source.value),
          imports: { [specifier.local.name]: app },
        })
      }
      statement.specifiers = statement.specifiers.filter((s) => s !== specifier)
      if (statement.specifiers.length === 0) ast.body.splice(ast.body.indexOf(statement), 1)
      ast.body.push(composed(app))
      return
    }
    // No `handle` yet: Latch's alone.
    ast.body.push(js.common.parseStatement(`export const handle = sequence(${LATCH_HOOKS})`))
  })
}

/** `export * from "@latch/drizzle-adapter/<dialect>"` in the app's Drizzle schema. */
export function spreadDrizzleTables(schema: string) {
  const transform = transforms.script(({ ast, js }) => {
    js.exports.addNamespace(ast, { from: `@latch/drizzle-adapter/${schema}` })
  })
  // sv-utils prints `export *  from` (two spaces): written as people write it.
  return (content: string) => transform(content).replace(/export \*\s+from/g, "export * from")
}

/** `import "@latch/sveltekit"` in `src/app.d.ts`: it declares `App.Locals.auth()`. */
export const declareLocals = transforms.script(({ ast, js }) => {
  js.imports.addEmpty(ast, { from: "@latch/sveltekit" })
})

/** A link to the protected page on the home page. */
export const linkFromHome = transforms.svelte(({ ast, svelte }) => {
  svelte.addFragment(ast, `<p><a href="${PROTECTED_PATH}">A page for signed-in users</a></p>`)
})
