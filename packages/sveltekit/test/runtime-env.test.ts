/**
 * A runtime that refuses to let the process's environment be read (Deno without `--allow-env`
 * throws `NotCapable` on every read of `process.env`): the handle still answers, with
 * `$env/dynamic/private` (which Deno's adapters fill themselves) as the environment.
 */
import { afterEach, describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../src/lib/index.js"
import { testConfig } from "./helpers/config.js"
import { Browser } from "./helpers/event.js"

const saved = process.env

afterEach(() => {
  process.env = saved
})

/**
 * Refuses as Deno does: listing the variables (what a spread does) and reading Latch's. Other
 * names read through, as Node.js itself reads a few of its own while the test runs.
 */
function refusingEnv(): NodeJS.ProcessEnv {
  const refuse = (name?: PropertyKey): never => {
    const what = typeof name === "string" ? ` to "${name}"` : ""
    throw Object.assign(
      new Error(`Requires env access${what}, run again with the --allow-env flag`),
      {
        name: "NotCapable",
      },
    )
  }
  const ours = (name: PropertyKey) =>
    typeof name === "string" && (name.startsWith("AUTH_") || name === "NODE_ENV")
  return new Proxy(saved, {
    get: (target, name) => (ours(name) ? refuse(name) : Reflect.get(target, name)),
    has: (target, name) => (ours(name) ? refuse(name) : Reflect.has(target, name)),
    ownKeys: () => refuse(),
  })
}

describe("a process environment that cannot be read", () => {
  it("leaves the handle answering, with the secret of $env/dynamic/private", async () => {
    process.env = refusingEnv()
    // The secret comes from the `$env/dynamic/private` stub, as on Deno's adapters.
    const { handle } = SvelteKitAuth(testConfig({ secret: undefined }))
    const browser = new Browser(handle)
    const { response } = await browser.signIn()
    expect(response.status).toBe(302)
    const { response: session } = await browser.fetch("/auth/session")
    expect(((await session.json()) as { user?: { name?: string } } | null)?.user?.name).toBe(
      "Alice",
    )
  })
})
