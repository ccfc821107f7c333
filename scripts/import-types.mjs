// The imports a type makes in place — `import("./other.js").Name`, `typeof import("./other.js")`
// — which dpdm does not see. They tie modules together as an `import type` does, so the cycle
// check (scripts/cycles.mjs) adds them to its graph of types.
import { existsSync, readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"
import ts from "typescript"

/** The module a relative specifier names, as TypeScript finds it (`./a.js` → `a.ts`). */
function resolveSource(from, specifier) {
  const base = resolve(dirname(from), specifier)
  const stem = base.replace(/\.(c|m)?jsx?$/, "")
  const candidates = [
    base,
    ...[".ts", ".tsx", ".mts", ".cts"].map((ext) => stem + ext),
    ...["index.ts", "index.tsx"].map((file) => resolve(base, file)),
  ]
  return candidates.find((file) => existsSync(file) && !file.endsWith(".d.ts"))
}

/** The relative specifiers of the type imports in one file's source. */
function importTypeSpecifiers(file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal) &&
      node.argument.literal.text.startsWith(".")
    ) {
      found.push(node.argument.literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/**
 * Adds to a dpdm tree (module id relative to `context` → its dependencies) an edge for each type
 * import in `files` (the sources checked; the tree also names packages and built-ins) that names
 * another module of the tree.
 */
export function addImportTypeEdges(tree, context, files) {
  for (const file of files) {
    const issuer = relative(context, file)
    const dependencies = tree[issuer]
    if (!dependencies) continue
    for (const request of importTypeSpecifiers(file)) {
      const target = resolveSource(file, request)
      const id = target && relative(context, target)
      if (id && id in tree) dependencies.push({ issuer, request, kind: "ImportType", id })
    }
  }
  return tree
}
