/**
 * scrypt (RFC 7914) in plain JavaScript over one table that is kept and reused: the portable
 * path of scrypt.ts, where there is no `node:crypto`.
 *
 * Why not `@noble/hashes`' `scrypt` for the whole of it: it allocates its 32 MiB table at every
 * call, and workerd does not collect those tables between derivations — measured in one isolate,
 * +53 MiB above the baseline after one derivation, +150 MiB after four, +265 MiB after nine
 * (bench/password-runtimes.mjs), against the 128 MB of a Workers isolate. Here the table of the
 * default parameters (32 MiB) is allocated once and every later derivation writes over it, so
 * the portable path holds 32 MiB however many derivations run; derivations take turns
 * (scrypt.ts runs one at a time). PBKDF2-HMAC-SHA256, the two ends of scrypt, stays noble's.
 *
 * The algorithm, from RFC 7914 §3–§6:
 *
 *     B  = PBKDF2-HMAC-SHA256(P, S, 1, p · 128 · r)
 *     Bᵢ = ROMix(r, Bᵢ, N)            for each of the p blocks of 128 · r bytes
 *     DK = PBKDF2-HMAC-SHA256(P, B, 1, dkLen)
 *
 * ROMix fills V with N successive BlockMix states, then mixes N times with the state XORed with
 * V[Integerify(X) mod N]; BlockMix runs Salsa20/8 over the 2r 64-byte blocks of the state and
 * interleaves the outputs (even ones first). All words are little-endian 32-bit integers.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7914
 */
import { pbkdf2 } from "@noble/hashes/pbkdf2.js"
import { sha256 } from "@noble/hashes/sha2.js"

/** The largest table kept between derivations (the default parameters' is 32 MiB). */
const KEPT_TABLE_BYTES = 64 * 2 ** 20

/** How often, in BlockMix calls, a derivation looks at the clock to let other work run. */
const CHECK_EVERY = 1024
/** How long a derivation runs before it yields to the event loop, in milliseconds. */
const SLICE_MS = 10

let kept: Uint32Array | undefined
let allocated = 0

/** A table of `words` 32-bit words: the kept one when it is large enough. */
function tableOf(words: number): Uint32Array {
  if (kept && kept.length >= words) return kept
  const table = new Uint32Array(words)
  allocated++
  if (words * 4 <= KEPT_TABLE_BYTES) kept = table
  return table
}

/** How many tables this process has allocated: what the tests hold the reuse to. */
export function tablesAllocated(): number {
  return allocated
}

const rotl = (value: number, bits: number) => (value << bits) | (value >>> (32 - bits))

/**
 * Salsa20/8 of (the 16 words of `a` at `ai`) xor (those of `b` at `bi`), written to `out` at
 * `oi`: 4 double rounds, then the input added (RFC 7914 §3). One function for the xor, the
 * rounds and the copy, so that BlockMix touches each word once.
 */
function salsaXor(
  a: Uint32Array,
  ai: number,
  b: Uint32Array,
  bi: number,
  out: Uint32Array,
  oi: number,
): void {
  const y0 = a[ai]! ^ b[bi]!,
    y1 = a[ai + 1]! ^ b[bi + 1]!
  const y2 = a[ai + 2]! ^ b[bi + 2]!,
    y3 = a[ai + 3]! ^ b[bi + 3]!
  const y4 = a[ai + 4]! ^ b[bi + 4]!,
    y5 = a[ai + 5]! ^ b[bi + 5]!
  const y6 = a[ai + 6]! ^ b[bi + 6]!,
    y7 = a[ai + 7]! ^ b[bi + 7]!
  const y8 = a[ai + 8]! ^ b[bi + 8]!,
    y9 = a[ai + 9]! ^ b[bi + 9]!
  const y10 = a[ai + 10]! ^ b[bi + 10]!,
    y11 = a[ai + 11]! ^ b[bi + 11]!
  const y12 = a[ai + 12]! ^ b[bi + 12]!,
    y13 = a[ai + 13]! ^ b[bi + 13]!
  const y14 = a[ai + 14]! ^ b[bi + 14]!,
    y15 = a[ai + 15]! ^ b[bi + 15]!
  let x0 = y0,
    x1 = y1,
    x2 = y2,
    x3 = y3,
    x4 = y4,
    x5 = y5,
    x6 = y6,
    x7 = y7
  let x8 = y8,
    x9 = y9,
    x10 = y10,
    x11 = y11,
    x12 = y12,
    x13 = y13,
    x14 = y14,
    x15 = y15
  for (let round = 0; round < 8; round += 2) {
    // Columns.
    x4 ^= rotl((x0 + x12) | 0, 7)
    x8 ^= rotl((x4 + x0) | 0, 9)
    x12 ^= rotl((x8 + x4) | 0, 13)
    x0 ^= rotl((x12 + x8) | 0, 18)
    x9 ^= rotl((x5 + x1) | 0, 7)
    x13 ^= rotl((x9 + x5) | 0, 9)
    x1 ^= rotl((x13 + x9) | 0, 13)
    x5 ^= rotl((x1 + x13) | 0, 18)
    x14 ^= rotl((x10 + x6) | 0, 7)
    x2 ^= rotl((x14 + x10) | 0, 9)
    x6 ^= rotl((x2 + x14) | 0, 13)
    x10 ^= rotl((x6 + x2) | 0, 18)
    x3 ^= rotl((x15 + x11) | 0, 7)
    x7 ^= rotl((x3 + x15) | 0, 9)
    x11 ^= rotl((x7 + x3) | 0, 13)
    x15 ^= rotl((x11 + x7) | 0, 18)
    // Rows.
    x1 ^= rotl((x0 + x3) | 0, 7)
    x2 ^= rotl((x1 + x0) | 0, 9)
    x3 ^= rotl((x2 + x1) | 0, 13)
    x0 ^= rotl((x3 + x2) | 0, 18)
    x6 ^= rotl((x5 + x4) | 0, 7)
    x7 ^= rotl((x6 + x5) | 0, 9)
    x4 ^= rotl((x7 + x6) | 0, 13)
    x5 ^= rotl((x4 + x7) | 0, 18)
    x11 ^= rotl((x10 + x9) | 0, 7)
    x8 ^= rotl((x11 + x10) | 0, 9)
    x9 ^= rotl((x8 + x11) | 0, 13)
    x10 ^= rotl((x9 + x8) | 0, 18)
    x12 ^= rotl((x15 + x14) | 0, 7)
    x13 ^= rotl((x12 + x15) | 0, 9)
    x14 ^= rotl((x13 + x12) | 0, 13)
    x15 ^= rotl((x14 + x13) | 0, 18)
  }
  out[oi] = (y0 + x0) | 0
  out[oi + 1] = (y1 + x1) | 0
  out[oi + 2] = (y2 + x2) | 0
  out[oi + 3] = (y3 + x3) | 0
  out[oi + 4] = (y4 + x4) | 0
  out[oi + 5] = (y5 + x5) | 0
  out[oi + 6] = (y6 + x6) | 0
  out[oi + 7] = (y7 + x7) | 0
  out[oi + 8] = (y8 + x8) | 0
  out[oi + 9] = (y9 + x9) | 0
  out[oi + 10] = (y10 + x10) | 0
  out[oi + 11] = (y11 + x11) | 0
  out[oi + 12] = (y12 + x12) | 0
  out[oi + 13] = (y13 + x13) | 0
  out[oi + 14] = (y14 + x14) | 0
  out[oi + 15] = (y15 + x15) | 0
}

/**
 * BlockMix of the 32·r words of `source` into `target` (RFC 7914 §4): X starts as the last
 * 64-byte block; for each block i, X = Salsa20/8(X xor block i), written to place i/2 for an
 * even i and r + (i − 1)/2 for an odd one (the next X is read back from there).
 */
function blockMix(source: Uint32Array, target: Uint32Array, r: number): void {
  const blocks = 2 * r
  let x = source
  let xi = (blocks - 1) * 16
  for (let i = 0; i < blocks; i++) {
    const oi = ((i & 1) * r + (i >> 1)) * 16
    salsaXor(x, xi, source, i * 16, target, oi)
    x = target
    xi = oi
  }
}

/** Resolves, with the time, after other queued work has had its turn. */
const yieldToEventLoop = () =>
  new Promise<number>((resolve) => setTimeout(() => resolve(Date.now()), 0))

/**
 * ROMix (RFC 7914 §5) of the 32·r words of `state`, in place, with `table` as V (N · 32·r
 * words). Integerify takes the first word of the last 64-byte block: N is at most 2^22, so the
 * low 32 bits of the little-endian integer are all that `mod N` reads.
 */
async function roMix(
  state: Uint32Array,
  table: Uint32Array,
  n: number,
  r: number,
  clock: { last: number },
): Promise<void> {
  const words = 32 * r
  let current = state.slice()
  let next = new Uint32Array(words)
  // Whether this derivation has run a slice: looked at every CHECK_EVERY BlockMix calls only,
  // so that the loops await nothing in between.
  const sliceOver = (i: number) => i % CHECK_EVERY === 0 && Date.now() - clock.last >= SLICE_MS
  for (let i = 0; i < n; i++) {
    table.set(current, i * words)
    blockMix(current, next, r)
    const swap = current
    current = next
    next = swap
    if (sliceOver(i)) clock.last = await yieldToEventLoop()
  }
  const last = (2 * r - 1) * 16
  for (let i = 0; i < n; i++) {
    const j = current[last]! & (n - 1)
    const from = j * words
    for (let k = 0; k < words; k++) current[k]! ^= table[from + k]!
    blockMix(current, next, r)
    const swap = current
    current = next
    next = swap
    if (sliceOver(i)) clock.last = await yieldToEventLoop()
  }
  state.set(current)
}

/** Bytes as little-endian 32-bit words. */
function wordsOf(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const words = new Uint32Array(bytes.byteLength / 4)
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true)
  return words
}

/** Little-endian 32-bit words as bytes. */
function bytesOf(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i]!, true)
  return bytes
}

/**
 * scrypt of `password` and `salt`: N = 2^ln, block size r, parallelism p, `length` bytes. N must
 * be a power of two above 1 (`ln` ≥ 1); callers bound the memory (`isBoundedScrypt`).
 */
export async function romixScrypt(
  password: Uint8Array,
  salt: Uint8Array,
  params: { ln: number; r: number; p: number },
  length: number,
): Promise<Uint8Array> {
  const { ln, r, p } = params
  const n = 2 ** ln
  const blockWords = 32 * r
  const b = wordsOf(pbkdf2(sha256, password, salt, { c: 1, dkLen: p * 128 * r }))
  const table = tableOf(n * blockWords)
  const clock = { last: Date.now() }
  for (let i = 0; i < p; i++) {
    await roMix(b.subarray(i * blockWords, (i + 1) * blockWords), table, n, r, clock)
  }
  return pbkdf2(sha256, password, bytesOf(b), { c: 1, dkLen: length })
}
