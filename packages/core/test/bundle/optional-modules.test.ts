/**
 * A Worker or edge bundle of an app needs no configuration for core's optional features: an app
 * that bundles only Credentials gets no import of `@simplewebauthn/server` or `nodemailer` (a
 * Worker bundle that keeps one as an unresolved module is refused by miniflare until every
 * module is listed), and an app that uses Passkey gets `@simplewebauthn/server` resolved by its
 * bundler. Bundled as Wrangler bundles a Worker: esbuild, `platform: "neutral"`, the `workerd`
 * and `worker` conditions, nothing external.
 */
import { fileURLToPath } from "node:url"
import { build, type Metafile } from "esbuild"
import { describe, expect, it } from "vitest"

const src = fileURLToPath(new URL("../../src/", import.meta.url))

interface Bundle {
  code: string
  /** The modules bundled. */
  inputs: string[]
  /** The modules the bundle still imports, left for the runtime to find. */
  externals: string[]
}

async function bundle(contents: string): Promise<Bundle> {
  const result = await build({
    stdin: { contents, resolveDir: src, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    metafile: true,
    logLevel: "silent",
  })
  const metafile = result.metafile as Metafile
  return {
    code: result.outputFiles[0]!.text,
    inputs: Object.keys(metafile.inputs),
    externals: Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((entry) => entry.external).map((entry) => entry.path),
    ),
  }
}

const worker = (providers: string, imports: string) => `
import { Auth } from "./index.ts"
${imports}
const config = { secret: "${"s".repeat(32)}", providers: [${providers}] }
export default { fetch: (request: Request) => Auth(request, config) }
`

describe("a Worker bundle", () => {
  it("of an app with Credentials only has neither @simplewebauthn/server nor nodemailer", async () => {
    const { code, inputs, externals } = await bundle(
      worker(
        "Credentials({ authorize: () => null })",
        'import Credentials from "./providers/credentials.ts"',
      ),
    )
    expect(externals).toEqual([])
    expect(inputs.filter((input) => /@simplewebauthn|nodemailer/.test(input))).toEqual([])
    expect(code).not.toMatch(/import\(["']@simplewebauthn|from ["']nodemailer/)
  })

  it("of an app with GitHub and Resend (mail over HTTP) has neither optional package", async () => {
    const { inputs, externals } = await bundle(
      worker(
        'GitHub({ clientId: "id", clientSecret: "secret" }), Resend({ apiKey: "key", from: "a@b.example" })',
        'import GitHub from "./providers/github.ts"\nimport Resend from "./providers/resend.ts"',
      ),
    )
    expect(externals).toEqual([])
    expect(inputs.filter((input) => /@simplewebauthn|nodemailer/.test(input))).toEqual([])
  })

  it("of an app with Passkey has @simplewebauthn/server resolved and bundled", async () => {
    const { inputs, externals } = await bundle(
      worker("Passkey()", 'import Passkey from "./providers/passkey.ts"'),
    )
    expect(externals).toEqual([])
    expect(inputs.some((input) => input.includes("@simplewebauthn/server"))).toBe(true)
    expect(inputs.filter((input) => input.includes("nodemailer"))).toEqual([])
  })
})
