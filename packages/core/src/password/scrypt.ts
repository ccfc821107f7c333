/**
 * One scrypt derivation (RFC 7914), on whichever implementation this runtime can run:
 *
 * - **`node`**: `node:crypto`'s `scrypt` (OpenSSL in Node.js, BoringSSL in Bun, Deno's and
 *   workerd's `nodejs_compat` own). Native code on a worker thread: a few times faster, and the
 *   event loop stays free.
 * - **`portable`**: plain JavaScript (romix.ts, with `@noble/hashes`' PBKDF2), where there is no
 *   `node:crypto` (Cloudflare Workers without `nodejs_compat`, Vercel's edge runtime) or where its
 *   `scrypt` is missing, broken or refuses the parameters (workerd's `nodejs_compat` before its
 *   2024-09-23 compatibility date). It yields to the event loop every 10 ms by the clock, so
 *   other requests are served while it runs (on Workers, whose clock stands still while code
 *   runs, it runs in one go); it runs on the request's thread, so on platforms that meter CPU
 *   time it counts (a few hundred milliseconds with the default parameters).
 *
 * Both produce the same bytes: a hash made on one runtime verifies on every other.
 *
 * Which one is used is decided once per process, at the first derivation: `node` if its
 * `scrypt` exists and derives RFC 7914's second test vector correctly. A `node` derivation that
 * fails later (a runtime that refuses these parameters) is done again on the portable path, which
 * is used from then on. Nothing is logged: either path makes the same hashes.
 *
 * Memory: a derivation needs 128 · r · (N + p + 2) bytes (`scryptMemory`), 32 MiB and a few
 * KiB with the default parameters, on either path. The portable path keeps its table and reuses
 * it (romix.ts says why: workerd did not collect a table per call between derivations), and runs
 * one derivation at a time (they share one thread: two at once would double the memory and
 * finish neither sooner), so it holds 32 MiB however many derivations run — a quarter of the
 * 128 MB of a Workers isolate. OWASP's Password Storage Cheat Sheet rates these parameters
 * (N = 2^15, r = 8, p = 3) as strong as its first recommendation, N = 2^17, r = 8, p = 1.
 */
import type * as NodeCrypto from "node:crypto"
import { nodeCrypto } from "../lib/node-crypto.js"

/** scrypt's parameters: `ln` is log2 of the cost N, `r` the block size, `p` the parallelism. */
export interface ScryptParams {
  ln: number
  r: number
  p: number
}

/** The implementations a derivation can run on (see the module's comment). */
export type ScryptBackend = "node" | "portable"

/**
 * The bytes a derivation allocates: V, N blocks of 128·r bytes (and two more of scratch), and B,
 * p blocks. OpenSSL refuses `maxmem` below exactly this; the p blocks of B are mixed one after
 * another through the same V, so p multiplies the time, not the memory.
 *
 * @see https://nodejs.org/api/crypto.html#cryptoscryptpassword-salt-keylen-options-callback
 */
export function scryptMemory(params: ScryptParams): number {
  return 128 * params.r * (2 ** params.ln + 2) + 128 * params.r * params.p
}

/** RFC 7914 §12, the second vector: "password", "NaCl", N = 1024, r = 8, p = 16, 64 bytes. */
const PROBE = {
  password: "password",
  salt: new TextEncoder().encode("NaCl"),
  params: { ln: 10, r: 8, p: 16 },
  key: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

function nodeScrypt(
  node: typeof NodeCrypto,
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
): Promise<Uint8Array> {
  // Node refuses to use more than `maxmem` (32 MiB by default, a little less than the defaults'
  // 32 MiB and 5 KiB): room for what this derivation needs, and a margin for other builds of
  // scrypt (BoringSSL's in Bun) that count their scratch space another way.
  const maxmem = scryptMemory(params) + 2 ** 20
  return new Promise((resolve, reject) => {
    try {
      node.scrypt(
        password,
        salt,
        length,
        { N: 2 ** params.ln, r: params.r, p: params.p, maxmem },
        (error, key) =>
          error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length)),
      )
    } catch (error) {
      // A stub that throws at once (an unimplemented `scrypt` of a compatibility layer).
      reject(error)
    }
  })
}

/**
 * The portable scrypt, loaded at the first portable derivation: where node:crypto's works it is
 * never needed, and importing it (with noble's PBKDF2) costs more than the rest of the package
 * (about 17 ms on Node.js). `@noble/hashes` is a dependency, not an optional one: bundlers for
 * Workers and the edge include it as they find it.
 */
let portable: Promise<typeof import("./romix.js")> | undefined

const utf8 = new TextEncoder()

/** The last portable derivation queued: the next starts when it ends. */
let portableTail: Promise<unknown> = Promise.resolve()

function portableScrypt(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
): Promise<Uint8Array> {
  const derive = async () =>
    (await (portable ??= import("./romix.js"))).romixScrypt(
      utf8.encode(password),
      salt,
      params,
      length,
    )
  const result = portableTail.then(derive, derive)
  portableTail = result.catch(() => undefined)
  return result
}

/** Whether `node:crypto`'s scrypt exists and derives RFC 7914's vector right. */
async function nodeWorks(): Promise<boolean> {
  if (typeof nodeCrypto?.scrypt !== "function") return false
  try {
    const { password, salt, params, key } = PROBE
    return hex(await nodeScrypt(nodeCrypto, password, salt, params, key.length / 2)) === key
  } catch {
    return false
  }
}

let chosen: Promise<ScryptBackend> | undefined
let forced: ScryptBackend | undefined

/** The implementation derivations run on in this process (probed at the first call). */
export function scryptBackend(): Promise<ScryptBackend> {
  if (forced) return Promise.resolve(forced)
  return (chosen ??= nodeWorks().then((works) => (works ? "node" : "portable")))
}

/**
 * Makes every derivation run on `backend` (`undefined`: the probed one again), with no fallback.
 * For tests and benchmarks that compare the two paths on one runtime.
 */
export function useScryptBackend(backend: ScryptBackend | undefined): void {
  forced = backend
}

/**
 * scrypt of `password` (UTF-8, already normalized) and `salt`, `length` bytes, on this runtime's
 * implementation. Rejects only when the portable path fails too (its memory could not be had).
 */
export async function deriveScrypt(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
): Promise<Uint8Array> {
  const backend = await scryptBackend()
  if (backend === "portable" || !nodeCrypto) return portableScrypt(password, salt, params, length)
  try {
    return await nodeScrypt(nodeCrypto, password, salt, params, length)
  } catch (error) {
    if (forced) throw error
    // It derived the test vector but refuses these parameters (a lower memory limit): the
    // portable path, for this derivation and every later one.
    chosen = Promise.resolve("portable")
    return portableScrypt(password, salt, params, length)
  }
}
