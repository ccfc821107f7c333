// Static cost in the browser: the minified + gzipped size of what `@latch/sveltekit` and
// `@auth/sveltekit` add to a browser bundle — the client helpers and the components — each
// bundled the same way, as an app's bundler would (SvelteKit's `$app/*` modules and the Svelte
// runtime stay external: every SvelteKit app has them anyway).
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { compile, compileModule } from "svelte/compiler"
import { benchDir, isMain, runAsScript } from "./lib/common.mjs"

const LIBRARIES = [
  { id: "latch", name: "Latch", package: "@latch/sveltekit" },
  { id: "authjs", name: "Auth.js", package: "@auth/sveltekit" },
]

/** What is bundled, per library: `source` is the entry module, importing from the package. */
const ENTRIES = [
  {
    id: "signInOut",
    label: "client entry, `signIn` and `signOut` (what both export)",
    source: (pkg) => `export { signIn, signOut } from "${pkg}/client"`,
  },
  {
    id: "client",
    label: "client entry, everything it exports",
    source: (pkg) => `export * from "${pkg}/client"`,
  },
  {
    id: "components",
    label: "components (`SignIn`, `SignOut`, compiled for the browser)",
    source: (pkg) => `export { SignIn, SignOut } from "${pkg}/components"`,
  },
]

/**
 * Entries only Latch has, measured alone: the live session (`useSession`), a module with runes
 * (`.svelte.js`) that also pulls in the client entry's `updateSession`.
 */
const LATCH_ONLY = [
  {
    id: "session",
    label: "live session entry (`useSession`, `createSessionStore`)",
    source: (pkg) => `export * from "${pkg}/session"`,
  },
]

/** The live session's budget, minified + gzipped: what one small component would cost. */
const SESSION_BUDGET = 2_048

/**
 * Compiles `.svelte` files for the browser (styles injected), and modules with runes
 * (`.svelte.js`), as vite-plugin-svelte does.
 */
const sveltePlugin = {
  name: "svelte",
  setup(build) {
    build.onLoad({ filter: /\.svelte\.js$/ }, ({ path }) => ({
      contents: compileModule(readFileSync(path, "utf8"), { generate: "client", filename: path }).js
        .code,
      loader: "js",
    }))
    build.onLoad({ filter: /\.svelte$/ }, ({ path }) => ({
      contents: compile(readFileSync(path, "utf8"), {
        generate: "client",
        css: "injected",
        filename: path,
      }).js.code,
      loader: "js",
    }))
  },
}

/**
 * Bundles `source` (resolved from bench/, where both packages are installed), minified, with
 * its dynamic imports split into chunks as an app's bundler (Vite) splits them: returns the
 * entry's bytes, and the bytes of each chunk it loads only when needed (`lazy`).
 */
async function minified(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(benchDir), loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    conditions: ["svelte", "browser"],
    write: false,
    splitting: true,
    outdir: "out",
    external: ["$app/*", "svelte", "svelte/*"],
    plugins: [sveltePlugin],
    logLevel: "silent",
  })
  const [entry, ...lazy] = result.outputFiles.sort((a, b) =>
    a.path.endsWith("stdin.js") ? -1 : b.path.endsWith("stdin.js") ? 1 : 0,
  )
  return Object.assign(entry.contents, { lazy: lazy.map((chunk) => chunk.contents) })
}

const measure = (bytes) => ({
  minified: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  lazy: (bytes.lazy ?? []).map((chunk) => measure(chunk)),
})

export async function runSize() {
  const sizes = {}
  for (const entry of ENTRIES) {
    sizes[entry.id] = {}
    for (const library of LIBRARIES)
      sizes[entry.id][library.id] = measure(await minified(entry.source(library.package)))
  }
  for (const entry of LATCH_ONLY)
    sizes[entry.id] = { latch: measure(await minified(entry.source("@latch/sveltekit"))) }
  const { signInOut, client, components, session } = sizes
  /** The passkey code of `<SignIn provider="passkey">`: a chunk only passkey forms load. */
  const passkeyChunk = components.latch.lazy.reduce((sum, chunk) => sum + chunk.gzip, 0)
  const verdict = (id) => (sizes[id].latch.gzip < sizes[id].authjs.gzip ? "met" : "missed")

  console.table(
    Object.fromEntries(
      [...ENTRIES, ...LATCH_ONLY].map((entry) => [
        entry.id,
        Object.fromEntries(
          LIBRARIES.flatMap((library) => [
            [`${library.id} min`, sizes[entry.id][library.id]?.minified ?? "—"],
            [`${library.id} gzip`, sizes[entry.id][library.id]?.gzip ?? "—"],
          ]),
        ),
      ]),
    ),
  )
  const summary =
    `Browser: \`signIn\` + \`signOut\` ${signInOut.latch.gzip} B minified + gzipped with Latch, ` +
    `${signInOut.authjs.gzip} B with Auth.js (goal: smaller, ${verdict("signInOut")}); the whole ` +
    `client entry ${client.latch.gzip} B and ${client.authjs.gzip} B; the components ` +
    `${components.latch.gzip} B and ${components.authjs.gzip} B (plus ${passkeyChunk} B loaded by ` +
    `passkey forms only); the live session ` +
    `${session.latch.gzip} B (Auth.js has none)`
  console.log(summary)

  const goals = [
    {
      area: "Static",
      label: "client entry (`signIn`, `signOut`), minified + gzipped",
      goal: "smaller than Auth.js's",
      value: `${signInOut.latch.gzip} B vs ${signInOut.authjs.gzip} B`,
      verdict: verdict("signInOut"),
      note: `the whole entry, with \`getSession\` and \`updateSession\` that Auth.js's lacks: ${client.latch.gzip} B`,
    },
    {
      area: "Static",
      label: "components (`SignIn`, `SignOut`), minified + gzipped",
      goal: "smaller than Auth.js's",
      value: `${components.latch.gzip} B vs ${components.authjs.gzip} B`,
      verdict: verdict("components"),
      note: `a passkey form loads ${passkeyChunk} B more, its ceremonies and autofill, in a chunk of its own`,
    },
    {
      area: "Static",
      label: "live session entry (`@latch/sveltekit/session`), minified + gzipped",
      goal: `at most ${SESSION_BUDGET} B (Auth.js's SvelteKit package has none)`,
      value: `${session.latch.gzip} B`,
      verdict: session.latch.gzip <= SESSION_BUDGET ? "met" : "missed",
      note: "with what it uses of the client entry (`updateSession`); SvelteKit's `$app/*` and the Svelte runtime external",
    },
  ]

  const rows = ENTRIES.map(
    (entry) =>
      `| ${entry.label} | ${LIBRARIES.map((l) => `${sizes[entry.id][l.id].minified} B | **${sizes[entry.id][l.id].gzip} B**`).join(" | ")} | ${(sizes[entry.id].latch.gzip / sizes[entry.id].authjs.gzip).toFixed(2)} |`,
  ).join("\n")

  const markdown = `## What the browser downloads

**\`signIn\` and \`signOut\` cost ${signInOut.latch.gzip} B minified + gzipped with Latch, ${signInOut.authjs.gzip} B
with Auth.js; the components ${components.latch.gzip} B and ${components.authjs.gzip} B.**

What is measured (\`bench/size.mjs\`): for each library, a one-line entry module importing from
the installed package — \`export { signIn, signOut } from "…/client"\`, \`export * from
"…/client"\`, \`export { SignIn, SignOut } from "…/components"\` — bundled with esbuild the same
way (\`minify\`, ESM, the \`svelte\` and \`browser\` export conditions, SvelteKit's \`$app/*\`
modules and the Svelte runtime external, as every SvelteKit app ships them anyway; \`.svelte\`
files compiled for the browser by the Svelte compiler with their styles injected), then gzip
level 9. Dynamic imports are split into chunks, as Vite splits them in an app, and the table
counts the entry alone: \`<SignIn provider="passkey">\` loads its ceremonies and autofill
(**${passkeyChunk} B** gzipped) in a chunk of their own, which pages without a passkey form never
download. Latch's client entry also exports \`getSession\` and \`updateSession\`, which Auth.js's
has no counterpart of; the first row bundles only what both export.

| Entry | Latch minified | Latch gzip | Auth.js minified | Auth.js gzip | Latch ÷ Auth.js (gzip) |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows}

The live session (\`export * from "@latch/sveltekit/session"\`, a module with runes compiled
for the browser by the Svelte compiler, with the client entry's \`updateSession\` it uses):
**${session.latch.minified} B minified, ${session.latch.gzip} B gzipped** (budget ${SESSION_BUDGET} B). Auth.js's
SvelteKit package has no counterpart.
`
  return { sizes, summary, markdown, goals }
}

if (isMain(import.meta.url)) runAsScript(runSize)
