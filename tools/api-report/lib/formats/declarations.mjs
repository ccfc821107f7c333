// Facts read from a package's built declarations with the TypeScript compiler API (the
// TypeScript that API Extractor brings): string-literal unions, and the member names of an
// interface.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const ts = require(createRequire(require.resolve("@microsoft/api-extractor")).resolve("typescript"))

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
}

/**
 * Exported type aliases of one declaration file that are unions of string literals.
 * @returns {Map<string, string[]>} alias → its members, sorted
 */
export function unionMembers(file) {
  const unions = new Map()
  for (const statement of parse(file).statements) {
    if (!ts.isTypeAliasDeclaration(statement) || !ts.isUnionTypeNode(statement.type)) continue
    const literals = statement.type.types.filter(
      (type) => ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal),
    )
    if (literals.length !== statement.type.types.length) continue
    unions.set(statement.name.text, literals.map((type) => type.literal.text).sort())
  }
  return unions
}

/** The member names of an exported interface of one declaration file, sorted. */
export function interfaceMembers(file, name) {
  for (const statement of parse(file).statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== name) continue
    return statement.members.map((member) => member.name.getText(statement.getSourceFile())).sort()
  }
  throw new Error(`${file} declares no interface ${name}`)
}
