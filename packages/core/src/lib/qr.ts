/**
 * QR codes (ISO/IEC 18004, Model 2), written here rather than taken as a dependency so that
 * two-factor enrolment can show its `otpauth://` URI as an inline SVG: no script runs on the
 * page and nothing is fetched, which the pages' CSP (`default-src 'none'`) would refuse anyway.
 *
 * Only what that needs: byte mode (UTF-8), versions 1–20 (97×97 modules, up to 858 bytes at
 * level L: far more than any enrolment URI), all four error correction levels, and the mask
 * chosen by the standard's penalty rules. Numeric, alphanumeric and Kanji modes, ECI and
 * structured append are left out: they only make some texts smaller.
 */

/** Error correction level: about 7 %, 15 %, 25 % or 30 % of the codewords can be restored. */
export type QrEcc = "L" | "M" | "Q" | "H"

export interface QrOptions {
  /** Error correction level; M by default (the standard's usual trade-off for screens). */
  ecc?: QrEcc
}

export interface QrSvgOptions extends QrOptions {
  /** Side of one module, in CSS pixels (the `width` and `height` of the SVG); 4 by default. */
  moduleSize?: number
  /** Light modules around the symbol: the standard asks for 4 (the default), readers need it. */
  margin?: number
  /** Accessible name of the image (`aria-label`); "QR code" by default. */
  label?: string
}

const MAX_VERSION = 20

/**
 * Error correction blocks of each version (1–20) and level (L, M, Q, H), from the standard's
 * Table 9: [error correction codewords per block, blocks of the first group, data codewords in
 * each of them, blocks of the second group]. Blocks of the second group hold one data codeword
 * more than those of the first.
 */
const BLOCKS: readonly (readonly (readonly [number, number, number, number])[])[] = [
  [
    [7, 1, 19, 0],
    [10, 1, 16, 0],
    [13, 1, 13, 0],
    [17, 1, 9, 0],
  ],
  [
    [10, 1, 34, 0],
    [16, 1, 28, 0],
    [22, 1, 22, 0],
    [28, 1, 16, 0],
  ],
  [
    [15, 1, 55, 0],
    [26, 1, 44, 0],
    [18, 2, 17, 0],
    [22, 2, 13, 0],
  ],
  [
    [20, 1, 80, 0],
    [18, 2, 32, 0],
    [26, 2, 24, 0],
    [16, 4, 9, 0],
  ],
  [
    [26, 1, 108, 0],
    [24, 2, 43, 0],
    [18, 2, 15, 2],
    [22, 2, 11, 2],
  ],
  [
    [18, 2, 68, 0],
    [16, 4, 27, 0],
    [24, 4, 19, 0],
    [28, 4, 15, 0],
  ],
  [
    [20, 2, 78, 0],
    [18, 4, 31, 0],
    [18, 2, 14, 4],
    [26, 4, 13, 1],
  ],
  [
    [24, 2, 97, 0],
    [22, 2, 38, 2],
    [22, 4, 18, 2],
    [26, 4, 14, 2],
  ],
  [
    [30, 2, 116, 0],
    [22, 3, 36, 2],
    [20, 4, 16, 4],
    [24, 4, 12, 4],
  ],
  [
    [18, 2, 68, 2],
    [26, 4, 43, 1],
    [24, 6, 19, 2],
    [28, 6, 15, 2],
  ],
  [
    [20, 4, 81, 0],
    [30, 1, 50, 4],
    [28, 4, 22, 4],
    [24, 3, 12, 8],
  ],
  [
    [24, 2, 92, 2],
    [22, 6, 36, 2],
    [26, 4, 20, 6],
    [28, 7, 14, 4],
  ],
  [
    [26, 4, 107, 0],
    [22, 8, 37, 1],
    [24, 8, 20, 4],
    [22, 12, 11, 4],
  ],
  [
    [30, 3, 115, 1],
    [24, 4, 40, 5],
    [20, 11, 16, 5],
    [24, 11, 12, 5],
  ],
  [
    [22, 5, 87, 1],
    [24, 5, 41, 5],
    [30, 5, 24, 7],
    [24, 11, 12, 7],
  ],
  [
    [24, 5, 98, 1],
    [28, 7, 45, 3],
    [24, 15, 19, 2],
    [30, 3, 15, 13],
  ],
  [
    [28, 1, 107, 5],
    [28, 10, 46, 1],
    [28, 1, 22, 15],
    [28, 2, 14, 17],
  ],
  [
    [30, 5, 120, 1],
    [26, 9, 43, 4],
    [28, 17, 22, 1],
    [28, 2, 14, 19],
  ],
  [
    [28, 3, 113, 4],
    [26, 3, 44, 11],
    [26, 17, 21, 4],
    [26, 9, 13, 16],
  ],
  [
    [28, 3, 107, 5],
    [26, 3, 41, 13],
    [30, 15, 24, 5],
    [28, 15, 15, 10],
  ],
]

/** Row/column centres of the alignment patterns of versions 2–20 (the standard's Annex E). */
const ALIGNMENT: readonly (readonly number[])[] = [
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
  [6, 30, 54],
  [6, 32, 58],
  [6, 34, 62],
  [6, 26, 46, 66],
  [6, 26, 48, 70],
  [6, 26, 50, 74],
  [6, 30, 54, 78],
  [6, 30, 56, 82],
  [6, 30, 58, 86],
  [6, 34, 62, 90],
]

const ECC_ORDER: Record<QrEcc, number> = { L: 0, M: 1, Q: 2, H: 3 }
/** The two bits that name the level in the format information (not in the order of strength). */
const ECC_FORMAT: Record<QrEcc, number> = { L: 0b01, M: 0b00, Q: 0b11, H: 0b10 }

// ---------------------------------------------------------------------------------------------
// Reed–Solomon over GF(256), with the standard's field polynomial x⁸+x⁴+x³+x²+1 (0x11d).

const EXP = new Uint8Array(510)
const LOG = new Uint8Array(256)
{
  let value = 1
  for (let i = 0; i < 255; i++) {
    EXP[i] = EXP[i + 255] = value
    LOG[value] = i
    value <<= 1
    if (value & 0x100) value ^= 0x11d
  }
}

function gfMultiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!
}

const generators = new Map<number, Uint8Array>()

/**
 * The generator polynomial (x − α⁰)(x − α¹)…(x − αⁿ⁻¹) of degree n, its coefficients from the
 * highest power down, the leading 1 left out. Memoised: a symbol uses one or two degrees.
 */
function generator(degree: number): Uint8Array {
  const known = generators.get(degree)
  if (known) return known
  let poly = [1]
  for (let i = 0; i < degree; i++) {
    // poly·(x + αⁱ): minus is plus in GF(2⁸).
    const next = new Array<number>(poly.length + 1).fill(0)
    poly.forEach((coefficient, j) => {
      next[j]! ^= coefficient
      next[j + 1]! ^= gfMultiply(coefficient, EXP[i]!)
    })
    poly = next
  }
  const result = Uint8Array.from(poly.slice(1))
  generators.set(degree, result)
  return result
}

/**
 * The error correction codewords of a block: the remainder of data(x)·xⁿ divided by the
 * generator polynomial of degree n. Exported for the tests (the standard's worked example).
 */
export function reedSolomonRemainder(data: ArrayLike<number>, degree: number): Uint8Array {
  const divisor = generator(degree)
  const remainder = new Uint8Array(degree)
  for (let i = 0; i < data.length; i++) {
    const factor = data[i]! ^ remainder[0]!
    remainder.copyWithin(0, 1)
    remainder[degree - 1] = 0
    for (let j = 0; j < degree; j++) remainder[j]! ^= gfMultiply(divisor[j]!, factor)
  }
  return remainder
}

// ---------------------------------------------------------------------------------------------
// BCH codes of the format and version information.

/** The remainder of value·x^(bits of generator − 1) divided by the generator, over GF(2). */
function bchRemainder(value: number, generator: number): number {
  const degree = 31 - Math.clz32(generator)
  let remainder = value << degree
  for (let bit = 31 - Math.clz32(remainder); bit >= degree; bit--) {
    if (remainder & (1 << bit)) remainder ^= generator << (bit - degree)
  }
  return remainder
}

/**
 * The 15 format information bits of a level and mask: 5 data bits, the (15,5) BCH code's 10
 * check bits, then XOR 101010000010010 so that no combination is all light. Exported for the
 * tests (the standard's Table C.1).
 */
export function formatBits(ecc: QrEcc, mask: number): number {
  const data = (ECC_FORMAT[ecc] << 3) | mask
  return ((data << 10) | bchRemainder(data, 0b10100110111)) ^ 0b101010000010010
}

/**
 * The 18 version information bits (version 7 and up): 6 data bits and the (18,6) Golay code's
 * 12 check bits. Exported for the tests (the standard's Table D.1).
 */
export function versionBits(version: number): number {
  return (version << 12) | bchRemainder(version, 0b1111100100101)
}

// ---------------------------------------------------------------------------------------------
// Data: byte mode segment, padding, blocks and interleaving.

function dataCodewords(version: number, ecc: QrEcc): number {
  const [, group1, dataPerBlock, group2] = BLOCKS[version - 1]![ECC_ORDER[ecc]]!
  return group1 * dataPerBlock + group2 * (dataPerBlock + 1)
}

/** Bits of the character count in byte mode: 8 up to version 9, 16 from version 10. */
function countBits(version: number): number {
  return version <= 9 ? 8 : 16
}

/** The smallest version whose data codewords hold the mode, the count and the bytes. */
function chooseVersion(length: number, ecc: QrEcc): number {
  for (let version = 1; version <= MAX_VERSION; version++) {
    if (4 + countBits(version) + 8 * length <= 8 * dataCodewords(version, ecc)) return version
  }
  throw new RangeError(
    `QR code: ${length} bytes do not fit in a version ${MAX_VERSION} symbol at level ${ecc}`,
  )
}

/** The data codewords: mode 0100, count, bytes, terminator, then the pad codewords 236 and 17. */
function encodeData(bytes: Uint8Array, version: number, ecc: QrEcc): Uint8Array {
  const capacity = dataCodewords(version, ecc)
  const out = new Uint8Array(capacity)
  let bitLength = 0
  const push = (value: number, bits: number) => {
    for (let bit = bits - 1; bit >= 0; bit--, bitLength++) {
      if ((value >>> bit) & 1) out[bitLength >>> 3]! |= 0x80 >>> (bitLength & 7)
    }
  }
  push(0b0100, 4)
  push(bytes.length, countBits(version))
  for (const byte of bytes) push(byte, 8)
  // Terminator (up to four 0 bits) and the zeros to the byte boundary are already there.
  for (let i = Math.ceil((bitLength + 4) / 8), pad = 0xec; i < capacity; i++, pad ^= 0xec ^ 0x11) {
    out[i] = pad
  }
  return out
}

/**
 * The final codeword sequence: the data cut into the version's blocks, each given its error
 * correction codewords, then the blocks interleaved codeword by codeword (data first, then
 * error correction) so that a damaged area of the symbol spreads over all of them.
 */
function interleave(data: Uint8Array, version: number, ecc: QrEcc): Uint8Array {
  const [eccPerBlock, group1, dataPerBlock, group2] = BLOCKS[version - 1]![ECC_ORDER[ecc]]!
  const blocks: Uint8Array[] = []
  const checks: Uint8Array[] = []
  let offset = 0
  for (let i = 0; i < group1 + group2; i++) {
    const length = dataPerBlock + (i < group1 ? 0 : 1)
    const block = data.subarray(offset, offset + length)
    offset += length
    blocks.push(block)
    checks.push(reedSolomonRemainder(block, eccPerBlock))
  }
  const out = new Uint8Array(data.length + eccPerBlock * blocks.length)
  let k = 0
  for (let i = 0; i <= dataPerBlock; i++) {
    for (const block of blocks) if (i < block.length) out[k++] = block[i]!
  }
  for (let i = 0; i < eccPerBlock; i++) for (const check of checks) out[k++] = check[i]!
  return out
}

// ---------------------------------------------------------------------------------------------
// The symbol: function patterns, data placement, masks.

/** A symbol being built: module colours, and which modules belong to function patterns. */
interface Grid {
  size: number
  dark: boolean[][]
  reserved: boolean[][]
}

function setFunction(grid: Grid, row: number, col: number, dark: boolean): void {
  grid.dark[row]![col] = dark
  grid.reserved[row]![col] = true
}

/** A finder pattern (7×7 rings, 3×3 core) centred at (row, col), with its light separator. */
function drawFinder(grid: Grid, row: number, col: number): void {
  for (let dr = -4; dr <= 4; dr++) {
    for (let dc = -4; dc <= 4; dc++) {
      const r = row + dr
      const c = col + dc
      if (r < 0 || c < 0 || r >= grid.size || c >= grid.size) continue
      const ring = Math.max(Math.abs(dr), Math.abs(dc))
      setFunction(grid, r, c, ring !== 2 && ring !== 4)
    }
  }
}

/** An alignment pattern (5×5 ring around one dark module) centred at (row, col). */
function drawAlignment(grid: Grid, row: number, col: number): void {
  for (let dr = -2; dr <= 2; dr++) {
    for (let dc = -2; dc <= 2; dc++) {
      setFunction(grid, row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1)
    }
  }
}

/**
 * Writes the format information twice: around the top-left finder, and split between the
 * top-right and bottom-left ones (so that one damaged corner leaves a readable copy). Bit 14
 * comes first in reading order; the dark module beside the bottom-left copy is always dark.
 */
function drawFormat(grid: Grid, ecc: QrEcc, mask: number): void {
  const bits = formatBits(ecc, mask)
  const size = grid.size
  for (let i = 0; i < 15; i++) {
    const dark = ((bits >>> i) & 1) === 1
    // Around the top-left finder: bits 0–7 down column 8 from the top edge, 8–14 along row 8
    // leftwards from column 7 (stepping over the timing pattern either way).
    if (i < 6) setFunction(grid, i, 8, dark)
    else if (i < 8) setFunction(grid, i + 1, 8, dark)
    else if (i === 8) setFunction(grid, 8, 7, dark)
    else setFunction(grid, 8, 14 - i, dark)
    // The other copy: bits 0–7 along row 8 leftwards from the right edge, 8–14 down column 8
    // to the bottom edge.
    if (i < 8) setFunction(grid, 8, size - 1 - i, dark)
    else setFunction(grid, size - 15 + i, 8, dark)
  }
  setFunction(grid, size - 8, 8, true)
}

/**
 * Writes the version information (version 7 and up, where the size alone is too hard to count)
 * beside the top-right and bottom-left finders: two 6×3 blocks, one the transpose of the other.
 */
function drawVersion(grid: Grid, version: number): void {
  if (version < 7) return
  const bits = versionBits(version)
  for (let i = 0; i < 18; i++) {
    const dark = ((bits >>> i) & 1) === 1
    const a = grid.size - 11 + (i % 3)
    const b = Math.floor(i / 3)
    setFunction(grid, b, a, dark)
    setFunction(grid, a, b, dark)
  }
}

/** A symbol with every function pattern in place, and the format and version areas reserved. */
function functionPatterns(version: number): Grid {
  const size = 17 + 4 * version
  const grid: Grid = {
    size,
    dark: Array.from({ length: size }, () => new Array<boolean>(size).fill(false)),
    reserved: Array.from({ length: size }, () => new Array<boolean>(size).fill(false)),
  }
  for (let i = 0; i < size; i++) {
    setFunction(grid, 6, i, i % 2 === 0)
    setFunction(grid, i, 6, i % 2 === 0)
  }
  drawFinder(grid, 3, 3)
  drawFinder(grid, 3, size - 4)
  drawFinder(grid, size - 4, 3)
  const centres = ALIGNMENT[version - 1]!
  const last = centres.length - 1
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      // The three corners that the finder patterns take.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue
      drawAlignment(grid, centres[i]!, centres[j]!)
    }
  }
  // Reserved now, written once the mask is known (any placeholder value will do).
  drawFormat(grid, "M", 0)
  drawVersion(grid, version)
  return grid
}

/**
 * Places the codewords, most significant bit first, in two-module-wide columns from the
 * bottom-right corner, going up then down in turn, leftwards, stepping over the vertical timing
 * pattern and every function module. The few modules left over (remainder bits) stay light.
 */
function placeData(grid: Grid, codewords: Uint8Array): void {
  const { size, dark, reserved } = grid
  let bit = 0
  let upward = true
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right = 5
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step
      for (const col of [right, right - 1]) {
        if (reserved[row]![col]) continue
        if (bit < codewords.length * 8) {
          dark[row]![col] = ((codewords[bit >>> 3]! >>> (7 - (bit & 7))) & 1) === 1
        }
        bit++
      }
    }
    upward = !upward
  }
  // The block table and the function patterns must agree: a mismatch would be a table error.
  if (bit < codewords.length * 8 || bit - codewords.length * 8 > 7) {
    throw new Error(`QR code: ${bit} data modules for ${codewords.length} codewords`)
  }
}

/** The eight data masks (the standard's Table 10): whether the module at (row, col) flips. */
const MASKS: readonly ((row: number, col: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
]

/** The data modules flipped by a mask (its own inverse: applying it twice undoes it). */
function applyMask(grid: Grid, mask: number): void {
  const flips = MASKS[mask]!
  for (let r = 0; r < grid.size; r++) {
    for (let c = 0; c < grid.size; c++) {
      if (!grid.reserved[r]![c] && flips(r, c)) grid.dark[r]![c] = !grid.dark[r]![c]
    }
  }
}

/**
 * The standard's penalty score of a finished symbol (§7.8.3): the lower, the fewer patterns
 * that could mislead a reader. Rule 1: runs of 5 or more modules of one colour in a row or
 * column (3, plus 1 per module beyond 5). Rule 2: 2×2 blocks of one colour (3 each). Rule 3:
 * the finder-like 1:1:3:1:1 pattern with 4 light modules on one side (40 each; beyond the edge
 * counts as light, since the quiet zone is). Rule 4: 10 per 5 % that dark modules stray from
 * half of them.
 */
function penalty(matrix: readonly (readonly boolean[])[]): number {
  const size = matrix.length
  let score = 0
  let darkCount = 0
  const at = (r: number, c: number) => matrix[r]![c]!
  for (let line = 0; line < 2; line++) {
    // line 0 reads rows, line 1 reads columns.
    const get = line === 0 ? at : (i: number, j: number) => at(j, i)
    for (let i = 0; i < size; i++) {
      let run = 0
      // The last 11 modules read, as bits (1 dark), for rule 3; starts as light (the quiet zone).
      let recent = 0
      // The line, then 4 light modules past its end.
      for (let j = 0; j < size + 4; j++) {
        const dark = j < size && get(i, j)
        if (j < size) {
          if (line === 0 && dark) darkCount++
          run = j > 0 && dark === get(i, j - 1) ? run + 1 : 1
          if (run === 5) score += 3
          else if (run > 5) score += 1
        }
        recent = ((recent << 1) | (dark ? 1 : 0)) & 0x7ff
        if (recent === 0b10111010000 || recent === 0b00001011101) score += 40
      }
    }
  }
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const dark = at(r, c)
      if (dark === at(r, c + 1) && dark === at(r + 1, c) && dark === at(r + 1, c + 1)) score += 3
    }
  }
  const total = size * size
  score += 10 * Math.floor(Math.abs(20 * darkCount - 10 * total) / total)
  return score
}

/**
 * The modules of the QR code of `text` (UTF-8, byte mode): rows from top to bottom, columns
 * from left to right, `true` for dark; without the quiet zone. The smallest version that holds
 * the text at the level asked for, and the mask of lowest penalty (the first of equal ones).
 * Throws a RangeError when the text needs more than version 20.
 *
 * No ECI header names the encoding: readers take valid UTF-8 as such, and some older ones do
 * not understand ECI; ASCII, what enrolment URIs are, reads the same either way.
 */
export function qrMatrix(text: string, options: QrOptions = {}): boolean[][] {
  const ecc = options.ecc ?? "M"
  if (!Object.hasOwn(ECC_ORDER, ecc)) {
    throw new RangeError(`QR code: unknown error correction level ${ecc}`)
  }
  const bytes = new TextEncoder().encode(text)
  const version = chooseVersion(bytes.length, ecc)
  const grid = functionPatterns(version)
  placeData(grid, interleave(encodeData(bytes, version, ecc), version, ecc))
  let best: { mask: number; score: number } | undefined
  for (let mask = 0; mask < MASKS.length; mask++) {
    applyMask(grid, mask)
    drawFormat(grid, ecc, mask)
    const score = penalty(grid.dark)
    if (!best || score < best.score) best = { mask, score }
    applyMask(grid, mask)
  }
  applyMask(grid, best!.mask)
  drawFormat(grid, ecc, best!.mask)
  return grid.dark
}

// ---------------------------------------------------------------------------------------------
// SVG.

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
}

/**
 * The QR code of `text` as one `<svg>` element to inline in a page: black modules on a white
 * square (readers need the contrast and the quiet zone whatever the page's colours), drawn by
 * a single `<path>` of one rectangle per horizontal run of dark modules, in module units scaled
 * by the viewBox. `crispEdges` keeps anti-aliasing from blurring the module boundaries. No
 * script, no external reference, nothing for the CSP to refuse.
 */
export function qrSvg(text: string, options: QrSvgOptions = {}): string {
  const moduleSize = options.moduleSize ?? 4
  const margin = options.margin ?? 4
  if (!(Number.isFinite(moduleSize) && moduleSize > 0)) {
    throw new RangeError(`QR code: moduleSize must be a positive number, not ${moduleSize}`)
  }
  if (!(Number.isInteger(margin) && margin >= 0)) {
    throw new RangeError(`QR code: margin must be a whole number of modules, not ${margin}`)
  }
  const matrix = qrMatrix(text, options)
  const side = matrix.length + 2 * margin
  let d = ""
  matrix.forEach((row, r) => {
    let c = 0
    while (c < row.length) {
      const start = row.indexOf(true, c)
      if (start === -1) break
      c = row.indexOf(false, start)
      if (c === -1) c = row.length
      d += `M${start + margin} ${r + margin}h${c - start}v1h-${c - start}z`
    }
  })
  const pixels = side * moduleSize
  const label = escapeAttribute(options.label ?? "QR code")
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" ` +
    `viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" role="img" aria-label="${label}">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  )
}
