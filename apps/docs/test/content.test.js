// The pieces the site and its checks are made of: heading ids as GitHub makes them, the code
// blocks and their markers, the module a block is checked as, and links between the repository's
// files turned into links between the site's pages.
import { describe, expect, it } from "vitest"
import { codeBlocks } from "../../../scripts/code-blocks.mjs"
import { moduleFor } from "../scripts/code-check/typescript.mjs"
import { fileForRequestPath } from "../scripts/site-files.mjs"
import { declaredName } from "../src/lib/content/reference.js"
import { siteHref } from "../src/lib/content/render.js"
import { pages } from "../src/lib/content/site.js"
import { readSource } from "../src/lib/content/source.js"
import { Slugger, slugify } from "../src/lib/content/slug.js"

describe("heading ids", () => {
  it("drop punctuation and keep hyphens, as GitHub does", () => {
    expect(slugify("Calling a provider's API: `getAccessToken`")).toBe(
      "calling-a-providers-api-getaccesstoken",
    )
    expect(slugify("A live session in the browser (@latch/sveltekit/session)")).toBe(
      "a-live-session-in-the-browser-latchsveltekitsession",
    )
  })

  it("number a repeated heading from -1", () => {
    const slugger = new Slugger()
    expect(["Errors", "Errors", "Errors-1", "Errors"].map((t) => slugger.slug(t))).toEqual([
      "errors",
      "errors-1",
      "errors-1-1",
      "errors-2",
    ])
  })
})

describe("code blocks", () => {
  const markdown = [
    "Text",
    "",
    "<!-- check: skip it needs a database -->",
    "",
    "```ts",
    "const a = 1",
    "```",
    "",
    "- a list item:",
    "",
    "  <!-- check: prelude",
    "  declare const b: number",
    "  -->",
    "  <!-- check: run -->",
    "  ```js title",
    "  export const c = b",
    "  ```",
    "",
    "<!-- just a comment -->",
    "````md",
    "```ts",
    "not a block",
    "```",
    "````",
  ].join("\n")

  it("are found with their language, first line and markers, indented ones too", () => {
    const blocks = codeBlocks(markdown)
    expect(blocks.map((b) => [b.lang, b.line, b.code])).toEqual([
      ["ts", 6, "const a = 1"],
      ["js", 16, "export const c = b"],
      ["md", 21, "```ts\nnot a block\n```"],
    ])
    expect(blocks[0].markers).toEqual([{ kind: "skip", reason: "it needs a database" }])
    expect(blocks[1].markers).toEqual([
      { kind: "prelude", code: "declare const b: number" },
      { kind: "run" },
    ])
    expect(blocks[2].markers).toEqual([])
  })
})

describe("the module a block is checked as", () => {
  const block = (/** @type {string} */ code, /** @type {any[]} */ markers = []) => ({
    lang: "ts",
    code,
    line: 10,
    markers,
    file: "x.md",
    check: "ts",
    id: "x",
  })

  it("wraps a configuration fragment, keeping its imports on top and its line numbers", () => {
    const { text, lines } = moduleFor(
      block('import Passkey from "@latch/core/providers/passkey"\n\nproviders: [Passkey()],'),
    )
    expect(text.split("\n")).toEqual([
      'import Passkey from "@latch/core/providers/passkey"',
      "",
      'const _fragment: Partial<import("@latch/core").AuthConfig> = {',
      "providers: [Passkey()],",
      "}",
      "export {}",
    ])
    expect(lines).toEqual([10, 11, null, 12, null, null])
  })

  it("puts a handler's body with a top-level return in a function, and the prelude above", () => {
    const { text, lines } = moduleFor(
      block("const x = 1\nreturn x", [{ kind: "prelude", code: "declare const y: 1" }]),
    )
    expect(text.split("\n")).toEqual([
      "declare const y: 1",
      "async function _handler(): Promise<unknown> {",
      "const x = 1",
      "return x",
      "}",
      "export {}",
    ])
    expect(lines).toEqual([null, null, 10, 11, null, null])
  })

  it("reads a route's ./$types from the check's stand-in", () => {
    const { text } = moduleFor(
      block(
        'import type { PageServerLoad } from "./$types"\nexport const load: PageServerLoad = () => ({})',
      ),
    )
    expect(text).toContain('from "$types"')
  })
})

describe("links between the repository's files", () => {
  it("land on the page that shows the heading", () => {
    expect(siteHref("docs/errors.md", "../packages/core/README.md#database-sessions")).toBe(
      "/concepts/sessions#database-sessions",
    )
    expect(siteHref("README.md", "docs/deploying/README.md")).toBe("/deploying")
    expect(siteHref("docs/deploying/node.md", "cloudflare.md#what-to-set")).toBe(
      "/deploying/cloudflare#what-to-set",
    )
  })

  it("on the same file, land on the page of that section", () => {
    expect(siteHref("packages/core/README.md", "#two-factor-authentication")).toBe(
      "/concepts/two-factor#two-factor-authentication",
    )
  })

  it("leave other sites alone, and give nothing for a file not on the site", () => {
    expect(siteHref("README.md", "https://example.com/a#b")).toBe("https://example.com/a#b")
    expect(siteHref("README.md", "packages/core/src/index.ts")).toBeUndefined()
  })

  it("every `##` section of the split READMEs is on exactly one page", () => {
    for (const file of ["packages/core/README.md", "packages/sveltekit/README.md", "README.md"]) {
      const shown = pages().filter((p) => p.source === file)
      const parts = shown.flatMap((p) => p.parts).sort((a, b) => a - b)
      expect(parts).toEqual(readSource(file).parts.map((_, i) => i))
    }
  })
})

describe("a reference item's name", () => {
  it("is the declared one where API Extractor renamed it to avoid a clash", () => {
    expect(
      declaredName("Awaited_2", "export type Awaited<T> = T extends Promise<infer U> ? U : T;"),
    ).toBe("Awaited")
    expect(declaredName("Event_3", "interface Event ")).toBe("Event")
  })
  it("stays the model's own otherwise", () => {
    expect(declaredName("Session", "export interface Session extends SessionFields ")).toBe(
      "Session",
    )
    // A name that ends in a number by itself, and a declaration that does not match it.
    expect(declaredName("Base_64", "export declare const Base_64: string")).toBe("Base_64")
    expect(declaredName("Thing_2", "export interface Other ")).toBe("Thing_2")
  })
})

describe("the local docs server's paths (pnpm run docs)", () => {
  it("serve nothing outside the build, however the path is written", () => {
    for (const attack of [
      "/../package.json",
      "/..%2f..%2fpackage.json",
      "/%2e%2e/%2e%2e/package.json",
      "/a/../../../package.json",
      "/%2e%2e%5c%2e%2e%5cpackage.json",
    ]) {
      expect(fileForRequestPath(attack), attack).toBeUndefined()
    }
  })
  it("answers nothing, rather than throwing, for a path that does not decode or holds a NUL", () => {
    expect(() => fileForRequestPath("/%E0%A4%A")).not.toThrow()
    expect(fileForRequestPath("/%E0%A4%A")).toBeUndefined()
    expect(fileForRequestPath("/index.html%00.png")).toBeUndefined()
  })
})
