// The types report of each entry point, by API Extractor, all entry points of a package in one
// TypeScript program: `CompilerState.create` with every entry point parses the declarations once,
// and each `Extractor.invoke` then only walks its own exports (about 15 s for core's 113 entry
// points on one core, against several minutes for one process per entry point).
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor"

/**
 * How the declarations are read: as an app's bundler reads them (`bundler` resolution, which is
 * what resolves `./SignIn.svelte` to `SignIn.svelte.d.ts`), with no global types but the DOM's.
 */
export const compilerOptions = {
  target: "es2022",
  module: "esnext",
  moduleResolution: "bundler",
  lib: ["es2023", "dom", "dom.iterable"],
  types: [],
  strict: true,
  skipLibCheck: true,
}

/**
 * Comment lines about documentation, not about the API (`// @public`, `// (undocumented)`): left
 * out, so that documenting a function does not change its report.
 */
const DOC_ONLY =
  /^\s*\/\/ (@public|\(undocumented\)|@public \(undocumented\)|\(No @packageDocumentation comment for this package\))\s*$/

/**
 * @param {string} packageDir a built package
 * @param {{ name: string, types: string, wildcard: boolean }[]} entries its entry points
 * @returns {Map<string, string>} report file name (`<entry>.api.md`) → text
 */
export function typesReports(packageDir, entries) {
  const folder = mkdtempSync(join(tmpdir(), "latch-api-"))
  try {
    const configs = entries.map((entry) => configFor(packageDir, entry, folder))
    const compilerState = CompilerState.create(configs[0], {
      additionalEntryPoints: entries.map((entry) => entry.types),
    })
    const reports = new Map()
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
      const entry = entries[index]
      if (!result.succeeded || problems.length > 0) {
        throw new Error(
          `API Extractor could not read ${entry.subpath} (${entry.types}):\n${problems.join("\n")}`,
        )
      }
      const text = readFileSync(join(folder, `${entry.name}.api.md`), "utf8")
      reports.set(`${entry.name}.api.md`, clean(text))
    }
    return reports
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The report without documentation-only comments, and with `\n` line ends. */
function clean(text) {
  return text
    .replaceAll("\r\n", "\n")
    .split("\n")
    .filter((line) => !DOC_ONLY.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
}

function configFor(packageDir, entry, folder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: packageDir,
      mainEntryPointFilePath: entry.types,
      compiler: { overrideTsconfig: { compilerOptions } },
      apiReport: {
        enabled: true,
        reportFileName: entry.name,
        reportFolder: folder,
        reportTempFolder: join(folder, "temp"),
        // A type that the entry point uses but does not export (an options interface, say) is
        // part of its API all the same: it is written out. Not for the wildcard entry points
        // (the ~100 providers): the types they share come from `./providers`, whose report has
        // them, and writing them out again in each would make a report of 5 MB.
        includeForgottenExports: !entry.wildcard,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: "error" } },
        extractorMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
        tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(packageDir, "package.json"),
  })
}
