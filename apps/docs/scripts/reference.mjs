// Writes API Extractor's doc model (`.api.json`) of every entry point of the published packages
// into apps/docs/.generated/api/<package>/<entry>.api.json, from their built declarations: the
// reference pages are rendered from these, so they show the TSDoc the packages ship and cannot
// drift from it. The entry points and compiler options are the API reports' own
// (tools/api-report), so the reference covers exactly what the reports guard.
//
// `@latch/sveltekit/providers/*` are left out: they re-export core's providers (the reference
// says so and links there), and reading them again would double the time.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor"
import { entryPoints } from "../../../tools/api-report/lib/entries.mjs"
import { compilerOptions } from "../../../tools/api-report/lib/types.mjs"
import { generatedDir, repoRoot } from "../src/lib/content/paths.js"

const started = Date.now()
const out = path.join(generatedDir, "api")
rmSync(out, { recursive: true, force: true })

const packagesDir = path.join(repoRoot, "packages")
let count = 0
for (const name of readdirSync(packagesDir).sort()) {
  const dir = path.join(packagesDir, name)
  const manifestFile = path.join(dir, "package.json")
  if (!existsSync(manifestFile)) continue
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"))
  if (manifest.private) continue
  const skipWildcards = manifest.name === "@latch/sveltekit"
  const entries = entryPoints(dir).filter((e) => !(skipWildcards && e.wildcard))
  if (entries.length === 0) continue
  const folder = path.join(out, name)
  mkdirSync(folder, { recursive: true })
  const configs = entries.map((entry) => configFor(dir, entry, folder))
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: entries.map((entry) => entry.types),
  })
  for (const [index, config] of configs.entries()) {
    const problems = []
    const result = Extractor.invoke(config, {
      localBuild: true,
      compilerState,
      messageCallback(message) {
        if (message.logLevel === "error") problems.push(message.text)
        message.handled = true
      },
    })
    if (!result.succeeded || problems.length > 0) {
      throw new Error(
        `API Extractor could not read ${manifest.name} ${entries[index].subpath}:\n${problems.join("\n")}`,
      )
    }
    count++
  }
  const listed = entries.map((e) => ({ subpath: e.subpath, name: e.name, wildcard: e.wildcard }))
  const wildcardsLeftOut = skipWildcards ? entryPoints(dir).filter((e) => e.wildcard).length : 0
  writeFileSync(
    path.join(folder, "entries.json"),
    JSON.stringify(
      { package: manifest.name, folder: name, entries: listed, wildcardsLeftOut },
      null,
      1,
    ),
  )
}
console.log(`reference: ${count} doc models in ${((Date.now() - started) / 1000).toFixed(1)} s`)

/**
 * @param {string} packageDir
 * @param {{ name: string, types: string, wildcard: boolean }} entry
 * @param {string} folder
 */
function configFor(packageDir, entry, folder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: packageDir,
      mainEntryPointFilePath: entry.types,
      compiler: { overrideTsconfig: { compilerOptions } },
      apiReport: { enabled: false },
      docModel: {
        enabled: true,
        apiJsonFilePath: path.join(folder, `${entry.name}.api.json`),
        // An options type the entry point uses without exporting it is documented all the same.
        includeForgottenExports: !entry.wildcard,
      },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: "error" } },
        extractorMessageReporting: { default: { logLevel: "none" } },
        tsdocMessageReporting: { default: { logLevel: "none" } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(packageDir, "package.json"),
  })
}
