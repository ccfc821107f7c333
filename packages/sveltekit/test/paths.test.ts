/**
 * `paths.base` from `resolve("/")`, which SvelteKit answers relative to the page ("./", "../")
 * while a request is handled with `paths.relative` (the default), and absolute otherwise.
 */
import { describe, expect, it, vi } from "vitest"

type Stub = typeof import("./stubs/app-paths.js")

/** paths.ts evaluated afresh, as when an app starts, with `$app/paths` set up by `before`. */
async function start(before: (paths: Stub) => void) {
  vi.resetModules()
  const paths: Stub = await import("./stubs/app-paths.js")
  before(paths)
  const { appBase } = await import("../src/lib/paths.js")
  return { paths, appBase }
}

describe("appBase", () => {
  it.each(["", "/app", "/deep/app"])("is %j when resolve answers absolute paths", async (base) => {
    const { appBase } = await start((paths) => paths.setBase(base))
    expect(appBase()).toBe(base)
    expect(appBase(new URL(`https://example.com${base}/a/b`))).toBe(base)
  })

  it("keeps the base read at start-up while a request answers relative paths", async () => {
    const { paths, appBase } = await start((paths) => paths.setBase("/app"))
    paths.setRelativePrefix("..")
    expect(appBase(new URL("https://example.com/app/a/b"))).toBe("/app")
    paths.setRelativePrefix(".")
    expect(appBase(new URL("https://example.com/app/a"))).toBe("/app")
  })

  it("resolves a relative answer against the request's URL when it never saw an absolute one", async () => {
    const { paths, appBase } = await start((paths) => {
      paths.setBase("/app")
      paths.setRelativePrefix("../..")
    })
    expect(appBase(new URL("https://example.com/app/a/b/c"))).toBe("/app")
    paths.setRelativePrefix(".")
    expect(appBase(new URL("https://example.com/app/page"))).toBe("/app")
    paths.setRelativePrefix("..")
    expect(appBase(new URL("https://example.com/page/"))).toBe("")
  })
})
