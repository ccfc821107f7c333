/**
 * Every import path and name of `@auth/sveltekit` 1.11.3 exists in `@latch/sveltekit`, so that an
 * app moves over by renaming the package. Names are read by the TypeScript compiler from Auth.js's
 * published declarations (installed for the benchmarks) and from Latch's sources.
 */
import * as core from "@latch/core"
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as adapters from "../src/lib/adapters.js"
import * as latch from "../src/lib/index.js"
import * as providers from "../src/lib/providers/index.js"
import { exportedNames } from "./helpers/exports.js"

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const AUTH = path("../../../bench/node_modules/@auth/sveltekit/")
const LATCH = path("../")
const CORE = path("../../core/")

type Exports = Record<string, unknown>
const exportsOf = (root: string) =>
  (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Exports }).exports

/** Where Latch's source of a subpath lives: the `types` target in dist, mapped back to src/lib. */
function latchSource(subpath: string): string {
  const map = exportsOf(LATCH) as Record<string, { types: string }>
  let types = map[subpath]?.types
  for (const [pattern, target] of Object.entries(map)) {
    const [prefix, suffix] = pattern.split("*") as [string, string | undefined]
    if (types || suffix === undefined || !subpath.startsWith(prefix)) continue
    types = target.types.replace("*", subpath.slice(prefix.length))
  }
  if (!types) throw new Error(`no ${subpath} in the exports map`)
  return `${LATCH}${types.replace("./dist/", "src/lib/").replace(/\.d\.ts$/, ".ts")}`
}

/** Core's provider modules with a default export (a provider factory, not a types module). */
const coreProviders = readdirSync(`${CORE}src/providers`)
  .filter((file) => file.endsWith(".ts"))
  .filter((file) => /^export default /m.test(readFileSync(`${CORE}src/providers/${file}`, "utf8")))
  .map((file) => file.slice(0, -3))

describe("import paths", () => {
  it("has every subpath of @auth/sveltekit's exports map", () => {
    const ours = Object.keys(exportsOf(LATCH))
    for (const subpath of Object.keys(exportsOf(AUTH))) expect(ours).toContain(subpath)
  })

  it("re-exports every provider of @latch/core under ./providers/<id>", async () => {
    expect(coreProviders.length).toBeGreaterThan(20)
    for (const id of coreProviders) {
      expect(existsSync(`${LATCH}src/lib/providers/${id}.ts`), id).toBe(true)
      // One after the other: the module runner may load a module twice when asked concurrently.
      const ours = (await import(/* @vite-ignore */ latchSource(`./providers/${id}`))) as Exports
      const theirs = (await import(/* @vite-ignore */ `@latch/core/providers/${id}`)) as Exports
      expect(ours.default, id).toBe(theirs.default)
      expect(Object.keys(ours).sort(), id).toEqual(Object.keys(theirs).sort())
    }
  })

  it("exports customFetch, the providers index and the adapters module at runtime", async () => {
    expect(latch.customFetch).toBe(core.customFetch)
    const ofCore = async (subpath: string) =>
      Object.keys((await import(/* @vite-ignore */ `@latch/core/${subpath}`)) as Exports)
    expect(Object.keys(providers).sort()).toEqual((await ofCore("providers")).sort())
    expect(Object.keys(adapters).sort()).toEqual((await ofCore("adapters")).sort())
    expect(adapters.isDate("2024-01-01T00:00:00.000Z")).toBe(true)
  })
})

describe("exported names", () => {
  // The subpaths this package writes itself: every name of Auth.js's is here.
  const own = [
    [".", "dist/index.d.ts"],
    ["./client", "dist/client.d.ts"],
    ["./webauthn", "dist/webauthn.d.ts"],
    ["./components", "dist/components/index.d.ts"],
  ] as const
  // The subpaths that re-export @latch/core: every name of core's is here, and every name of
  // @auth/sveltekit's same subpath where it has one.
  const passedThrough: [subpath: string, dist: string][] = [
    ["./adapters", "dist/adapters.d.ts"],
    ["./providers", "dist/providers/index.d.ts"],
    ...coreProviders.map((id): [string, string] => [
      `./providers/${id}`,
      `dist/providers/${id}.d.ts`,
    ]),
  ]
  const files = [
    ...own.flatMap(([subpath, auth]) => [`${AUTH}${auth}`, latchSource(subpath)]),
    ...passedThrough.flatMap(([subpath, dist]) => [
      `${CORE}${dist}`,
      latchSource(subpath),
      ...(existsSync(`${AUTH}${dist}`) ? [`${AUTH}${dist}`] : []),
    ]),
  ]
  const names = exportedNames(files)

  it.each(own)("%s exports every name @auth/sveltekit's does", (subpath, auth) => {
    const theirs = [...names.get(`${AUTH}${auth}`)!]
    expect(theirs.length).toBeGreaterThan(0)
    const ours = names.get(latchSource(subpath))!
    expect(theirs.filter((name) => !ours.has(name))).toEqual([])
  })

  it.each(passedThrough)("%s exports every name of core's and Auth.js's", (subpath, dist) => {
    const ours = names.get(latchSource(subpath))!
    const fromCore = [...names.get(`${CORE}${dist}`)!]
    expect(fromCore.filter((name) => !ours.has(name))).toEqual([])
    const fromAuth = [...(names.get(`${AUTH}${dist}`) ?? [])]
    expect(fromAuth.filter((name) => !ours.has(name))).toEqual([])
  })

  it("has a ./providers/<id> for every provider module of @auth/sveltekit, in core too", () => {
    const theirs = readdirSync(`${AUTH}dist/providers`)
      .filter((file) => file.endsWith(".d.ts"))
      .map((file) => file.slice(0, -5))
    expect(theirs.length).toBeGreaterThan(90)
    const missing = theirs.filter(
      (id) =>
        !existsSync(`${CORE}src/providers/${id}.ts`) ||
        !existsSync(latchSource(`./providers/${id}`)),
    )
    expect(missing).toEqual([])
  })
}, 60_000)
