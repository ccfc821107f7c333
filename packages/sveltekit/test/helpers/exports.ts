/**
 * The names a module exports, values and types alike, read by the TypeScript compiler from
 * declarations or sources: what an app can import from it.
 */
import ts from "typescript"

/** The exported names of each file, resolving `export *` and re-exports through packages. */
export function exportedNames(files: string[]): Map<string, Set<string>> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    allowJs: false,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const result = new Map<string, Set<string>>()
  for (const file of files) {
    const source = program.getSourceFile(file)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (!symbol) throw new Error(`no module at ${file}`)
    result.set(file, new Set(checker.getExportsOfModule(symbol).map((entry) => entry.name)))
  }
  return result
}
