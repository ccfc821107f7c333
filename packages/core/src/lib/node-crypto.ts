/**
 * `node:crypto` where there is one, else `undefined`: loaded through `process.getBuiltinModule`,
 * so that bundlers for other runtimes never see it. Where it is, small hashes and HMACs run
 * synchronously; Web Crypto is a round trip to a worker thread each time (about 60 µs on Node,
 * against a few).
 */
import type * as NodeCrypto from "node:crypto"

export const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as typeof NodeCrypto | undefined
