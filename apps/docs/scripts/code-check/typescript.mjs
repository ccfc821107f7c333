// The TypeScript and JavaScript blocks, type-checked in one TypeScript program against the
// workspace's built packages, as an app that installed them would see them.
//
// Each block becomes one module under .code-check/blocks (git-ignored). What is added around it,
// hidden from the reader:
// - the block's `<!-- check: prelude … -->` code, above it;
// - the names the docs use without defining them (`config`, `request`, `event`, `pool`, …),
//   declared once in code-check/globals.d.ts;
// - a block that is a fragment of a configuration object (it starts with `name:`) is wrapped in
//   `const _: Partial<AuthConfig> = { … }`; one with a `return` at its top level, in an async
//   function (it is a request handler's body); one that reads `event` outside a function gets
//   it declared as SvelteKit's RequestEvent (in the module: the DOM's global `event` would win);
// - a block whose first line names its file (`// src/lib/server/db/index.ts`) is written at that
//   path, beside the page's other files, so that its relative imports (`./schema`) find them.
// Errors are reported at the line of the Markdown file.
import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import ts from "typescript"
import { docsDir } from "../../src/lib/content/paths.js"

const checkDir = path.join(docsDir, ".code-check")

/**
 * @param {import("./collect.mjs").Block} block
 * @returns {{ text: string, lines: (number | null)[] }} the module, and for each of its lines
 *   the Markdown line it came from (null: added by the check)
 */
export function moduleFor(block) {
  /** @type {[string, number | null][]} */
  const out = []
  for (const marker of block.markers) {
    if (marker.kind === "prelude")
      for (const line of marker.code.split("\n")) out.push([line, null])
  }
  const lines = block.code
    .split("\n")
    .map((text, i) => /** @type {[string, number]} */ ([text, block.line + i]))
  // The block's leading imports (and comments) stay at the top of the module.
  let head = 0
  let inImport = false
  for (; head < lines.length; head++) {
    const text = lines[head][0].trim()
    if (inImport) {
      if (/\bfrom\s+["'][^"']+["']/.test(text)) inImport = false
      continue
    }
    if (text === "" || text.startsWith("//")) continue
    if (/^import\b/.test(text)) {
      if (!/\bfrom\s+["'][^"']+["']|^import\s+["']/.test(text)) inImport = true
      continue
    }
    break
  }
  const body = lines.slice(head)
  const first =
    body.find(([text]) => text.trim() !== "" && !text.trim().startsWith("//"))?.[0] ?? ""
  let open = null
  let close = null
  const shape = topLevel(block.code)
  if (shape.event) out.push(['declare const event: import("@sveltejs/kit").RequestEvent', null])
  if (/^[A-Za-z_$][\w$]*\??\s*:/.test(first)) {
    open = `const _fragment: Partial<import("@latch/core").AuthConfig> = {`
    close = "}"
  } else if (shape.returns) {
    open = "async function _handler(): Promise<unknown> {"
    close = "}"
  }
  out.push(...lines.slice(0, head))
  if (open) out.push([open, null])
  out.push(...body)
  if (close) out.push([close, null])
  out.push(["export {}", null])
  const text = out.map(([line]) => rewrite(line)).join("\n")
  return { text, lines: out.map(([, line]) => line) }
}

/**
 * What the block does outside any function: `return` (a handler's body), or read `event`.
 * @param {string} code
 */
function topLevel(code) {
  const file = ts.createSourceFile("block.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const shape = { returns: false, event: false }
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return
    if (ts.isReturnStatement(node)) shape.returns = true
    if (
      ts.isIdentifier(node) &&
      node.text === "event" &&
      !ts.isPropertyAccessExpression(node.parent)
    ) {
      shape.event = true
    }
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "event"
    ) {
      shape.event = true
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return shape
}

/**
 * Where a block is written: at the path its first line names, under its page's folder, or else
 * at its own name. A second block naming the same path gets a folder of its own.
 * @param {import("./collect.mjs").Block} block
 * @param {Set<string>} taken
 */
function placeOf(block, taken) {
  const ext = block.check === "js" ? "js" : "ts"
  const named = /^\/\/\s+((?:src|static)\/[^\s:]+?)\.(ts|js)\b/.exec(block.code.trimStart())
  const page = block.file.replace(/[^\w]+/g, "-")
  // A block with files of its own (`check: file`) gets a folder, so that they are its alone.
  if (block.markers.some((m) => m.kind === "file")) {
    return `blocks/${block.id}/${named ? named[1] : "block"}.${ext}`
  }
  if (named) {
    const candidate = `blocks/${page}/${named[1]}.${ext}`
    if (!taken.has(candidate)) return candidate
    return `blocks/${page}/${block.id}/${named[1]}.${ext}`
  }
  return `blocks/${block.id}.${ext}`
}

/**
 * What SvelteKit's tooling and the page's own files give a block, on the same line so that line
 * numbers stay: a route's `./$types`, and the app's `src/auth.ts` (`../../auth`), read from
 * stand-ins in globals.d.ts; and a route's unannotated `export const load` / `actions` / `GET`…
 * typed as SvelteKit types them in a route file ("zero-config type safety").
 * @param {string} line
 */
function rewrite(line) {
  return line
    .replace(/(["'])\.\/\$types\1/g, '"$types"')
    .replace(/(["'])(?:\.\.?\/)+auth(?:\.js|\.ts)?\1/g, '"$auth"')
    .replace(
      /^export const (load|actions) = /,
      (_, name) =>
        `export const ${name}: import("$types").${name === "load" ? "PageServerLoad" : "Actions"} = `,
    )
    .replace(
      /^export const (GET|POST|PUT|PATCH|DELETE) = /,
      'export const $1: import("$types").RequestHandler = ',
    )
}

/**
 * @param {import("./collect.mjs").Block[]} blocks ts and js blocks
 * @param {string} [dir] where the modules are written (inside apps/docs, for its node_modules)
 * @returns {Map<string, string[]>} block id → its errors, each "file:line: message"
 */
export function typeCheck(blocks, dir = checkDir) {
  const checkDir = dir
  rmSync(path.join(checkDir, "blocks"), { recursive: true, force: true })
  mkdirSync(path.join(checkDir, "blocks"), { recursive: true })
  /** @type {Map<string, { block: import("./collect.mjs").Block, lines: (number | null)[] }>} */
  const byFile = new Map()
  for (const block of blocks) {
    const name = placeOf(block, new Set(byFile.keys()))
    const { text, lines } = moduleFor(block)
    mkdirSync(path.dirname(path.join(checkDir, name)), { recursive: true })
    writeFileSync(path.join(checkDir, name), `${text}\n`)
    for (const marker of block.markers) {
      if (marker.kind !== "file") continue
      const file = path.join(path.dirname(path.join(checkDir, name)), marker.path)
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, `${marker.code}\n`)
    }
    byFile.set(name, { block, lines })
  }
  writeFileSync(
    path.join(checkDir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          lib: ["es2023", "dom", "dom.iterable"],
          types: ["node", "bun", "@sveltejs/kit"],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          esModuleInterop: true,
          resolveJsonModule: true,
          isolatedModules: true,
        },
        include: ["blocks", `${path.relative(dir, path.join(docsDir, "code-check"))}/*.d.ts`],
      },
      null,
      2,
    ),
  )
  const tsc = path.join(docsDir, "node_modules/typescript/bin/tsc")
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: checkDir,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  })
  /** @type {Map<string, string[]>} */
  const errors = new Map()
  let last = null
  for (const line of result.stdout.split("\n")) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line)
    if (!match) {
      if (last && line.startsWith(" ")) last.push(line.trim())
      continue
    }
    const [, file, lineNo, , code, message] = match
    const entry = byFile.get(file.replaceAll("\\", "/"))
    const text = `${code}: ${message}`
    if (!entry) {
      // An error outside the blocks (the declarations of globals.d.ts): every block is in doubt.
      if (!errors.has("(globals)")) errors.set("(globals)", [])
      errors.get("(globals)")?.push(`${file}:${lineNo}: ${text}`)
      continue
    }
    const sourceLine = entry.lines[Number(lineNo) - 1]
    const where = `${entry.block.file}:${sourceLine ?? `${entry.block.line} (in code the check adds)`}`
    if (!errors.has(entry.block.id)) errors.set(entry.block.id, [])
    const list = errors.get(entry.block.id) ?? []
    list.push(`${where}: ${text}`)
    last = list
  }
  if (result.status !== 0 && errors.size === 0) {
    throw new Error(
      `tsc failed without an error this check can read:\n${result.stdout}${result.stderr}`,
    )
  }
  return errors
}
