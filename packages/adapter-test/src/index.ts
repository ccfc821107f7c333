/**
 * The conformance suite of Latch adapters. Every adapter runs it from its own tests:
 *
 * ```ts
 * import { afterAll, beforeAll, describe, expect, it } from "vitest"
 * import { runAdapterConformance } from "@latch/adapter-test"
 *
 * runAdapterConformance("my adapter", async () => ({ adapter: myAdapter(), teardown }), {
 *   describe, it, expect, beforeAll, afterAll,
 * })
 * ```
 *
 * The suite takes the runner's functions as an argument, so this package depends on no runner.
 * Each test makes its own random ids and emails, so one adapter (one database) serves them all.
 *
 * @module adapter-test
 */
import type { Adapter } from "@latch/core/adapters"
import { defineCases } from "./cases.js"
import { adapterMethods } from "./methods.js"
import type { TestApi } from "./test-api.js"

export { adapterMethods } from "./methods.js"
export type { Assertion, Expect, Hook, TestApi } from "./test-api.js"

/** What `setup` gives the suite: the adapter, and how to dispose of it. */
export interface AdapterSetup {
  adapter: Adapter
  teardown?: () => Promise<void> | void
}

/** An adapter whose missing methods fail with a message that names them. */
function complete(adapter: Adapter): Required<Adapter> {
  return new Proxy(adapter, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (value === undefined && (adapterMethods as readonly PropertyKey[]).includes(key)) {
        throw new Error(`the adapter does not implement ${String(key)}`)
      }
      return value
    },
  }) as Required<Adapter>
}

/**
 * Declares the conformance tests of one adapter under `describe(name)`.
 *
 * `setup` runs once for the suite when `t.beforeAll` is given (then `teardown` in
 * `t.afterAll`), else before each test with `t.beforeEach` (teardown in `t.afterEach`), else
 * inside each test.
 */
export function runAdapterConformance(
  name: string,
  setup: () => Promise<AdapterSetup> | AdapterSetup,
  t: TestApi,
): void {
  let current: AdapterSetup | undefined

  async function start() {
    current = await setup()
  }
  async function stop() {
    const done = current
    current = undefined
    await done?.teardown?.()
  }

  let hooked = false
  const withAdapter = async (test: (adapter: Required<Adapter>) => Promise<void>) => {
    if (hooked) {
      if (!current) throw new Error(`${name}: setup did not run or failed`)
      return test(complete(current.adapter))
    }
    await start()
    try {
      await test(complete(current!.adapter))
    } finally {
      await stop()
    }
  }

  t.describe(name, () => {
    if (t.beforeAll) {
      t.beforeAll(start, 60_000)
      t.afterAll?.(stop, 60_000)
      hooked = true
    } else if (t.beforeEach) {
      t.beforeEach(start, 60_000)
      t.afterEach?.(stop, 60_000)
      hooked = true
    }
    defineCases(t, withAdapter)
  })
}
