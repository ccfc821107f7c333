// Timings of the Password provider's hashing, for any runtime: Node.js, Bun, Deno, workerd, an
// edge runtime. No node: import, nothing but `performance.now()` and the package itself, so that
// a harness can bundle this module into a program (or a Worker) and call `timeDerivations`
// there. bench/password-hash.mjs calls it on Node.js for both of scrypt's paths.
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from "@latch/core/providers/password"

const sorted = (values) => [...values].sort((a, b) => a - b)

/**
 * `rounds` derivations with the default parameters, one after another (each a `hashPassword`,
 * whose result is then checked once, untimed, so that a broken path cannot look fast), after
 * `warmup` untimed ones.
 *
 * @returns `{ params, ms, median, min, max, path }`: the milliseconds of each derivation, and
 *   which implementation this runtime offers (`"node:crypto"` when it has a `scrypt` function
 *   there, else `"portable"`: Latch falls back further when that one fails its self-test)
 */
export async function timeDerivations({
  rounds = 5,
  warmup = 1,
  password = "bench password",
} = {}) {
  for (let i = 0; i < warmup; i++) await hashPassword(password)
  const ms = []
  let last = ""
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    last = await hashPassword(password)
    ms.push(performance.now() - started)
  }
  if (!(await verifyPassword(password, last)).ok)
    throw new Error("a hash made in this run did not verify")
  const order = sorted(ms)
  const middle = order.length >> 1
  return {
    params: { ...DEFAULT_SCRYPT },
    ms,
    median: order.length % 2 ? order[middle] : (order[middle - 1] + order[middle]) / 2,
    min: order[0],
    max: order[order.length - 1],
    path: offersNodeScrypt() ? "node:crypto" : "portable",
  }
}

/** Whether the runtime offers `node:crypto`'s scrypt where Latch looks for it. */
function offersNodeScrypt() {
  const node = globalThis.process?.getBuiltinModule?.("node:crypto")
  return typeof node?.scrypt === "function"
}
