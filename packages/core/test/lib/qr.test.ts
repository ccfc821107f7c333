import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  formatBits,
  qrMatrix,
  qrSvg,
  reedSolomonRemainder,
  versionBits,
  type QrEcc,
} from "../../src/lib/qr.js"

// The oracle is a real reader: zbar's `zbarimg` (Debian's zbar-tools), fed the symbols as PBM
// images. Installed here when missing, as the PostgreSQL tests install PostgreSQL, so that the
// suite never passes by skipping it.

const LEVELS: readonly QrEcc[] = ["L", "M", "Q", "H"]
const OTPAUTH =
  "otpauth://totp/Example%3Aalice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6&period=30"

const hasZbarimg = () =>
  spawnSync("sh", ["-c", "command -v zbarimg"], { stdio: "ignore" }).status === 0

/** Installs Debian's zbar-tools with apt-get (as root, or with passwordless sudo). */
function ensureZbarimg(): void {
  if (hasZbarimg()) return
  const root = process.getuid?.() === 0
  const apt = (...args: string[]) => {
    const result = root
      ? spawnSync("apt-get", args, {
          encoding: "utf8",
          env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
        })
      : spawnSync("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args], {
          encoding: "utf8",
        })
    if (result.status !== 0) {
      throw new Error(
        "QR code tests: zbarimg (the decoder they check the symbols with) is not on PATH, and " +
          `installing Debian's zbar-tools failed (apt-get ${args.join(" ")}: ` +
          `${result.error?.message ?? `exit ${result.status}`}). Install it with ` +
          "`apt-get install zbar-tools` as root.\n" +
          `${result.stderr ?? ""}`.trim(),
      )
    }
  }
  apt("update")
  apt("install", "-y", "--no-install-recommends", "zbar-tools")
  if (!hasZbarimg()) {
    throw new Error("QR code tests: zbar-tools is installed but zbarimg is not on PATH")
  }
}

let dir: string
let files = 0

beforeAll(() => {
  ensureZbarimg()
  dir = mkdtempSync(join(tmpdir(), "latch-qr-"))
}, 300_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The modules (true = dark) as a plain PBM (P1), with a 4-module quiet zone, 4 px a module. */
function pbm(matrix: readonly (readonly boolean[])[], margin = 4, scale = 4): string {
  const side = (matrix.length + 2 * margin) * scale
  const lines = [`P1`, `${side} ${side}`]
  for (let y = 0; y < side; y++) {
    let line = ""
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - margin
      const col = Math.floor(x / scale) - margin
      line += matrix[row]?.[col] ? "1" : "0"
    }
    lines.push(line)
  }
  return `${lines.join("\n")}\n`
}

/** What zbarimg reads in the symbol (without the newline it ends its output with). */
function decode(matrix: readonly (readonly boolean[])[]): Promise<string> {
  const file = join(dir, `symbol-${files++}.pbm`)
  writeFileSync(file, pbm(matrix))
  return new Promise((resolve, reject) => {
    execFile("zbarimg", ["--raw", "-q", file], { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`zbarimg read nothing in ${file} (${error.message}) ${stderr}`))
      else resolve(stdout.replace(/\n$/, ""))
    })
  })
}

/** Runs `task` over `items`, a few at a time (one zbarimg per core). */
async function eachLimited<T>(items: readonly T[], task: (item: T) => Promise<void>) {
  const queue = [...items]
  const workers = Array.from({ length: Math.min(availableParallelism(), 8) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item)
  })
  await Promise.all(workers)
}

const versionOf = (matrix: readonly unknown[]) => (matrix.length - 17) / 4

// zbar corrects errors, as any reader does: an encoder that got a few modules wrong (one copy of
// the format information, the last codeword, a pad byte) would still be read. So the tests also
// read the symbols strictly, each part from the standard's description, independently of
// the encoder's code: the format and version information must be in both copies exactly, and
// the codewords of single-block symbols must be exactly those of the standard's encoding.

/** GF(256) product modulo x⁸+x⁴+x³+x²+1, bit by bit (no tables to share with the encoder). */
function gfTimes(a: number, b: number): number {
  let product = 0
  for (; b > 0; b >>= 1) {
    if (b & 1) product ^= a
    a = a & 0x80 ? ((a << 1) ^ 0x11d) & 0xff : a << 1
  }
  return product
}

/** The codeword polynomial (first codeword the highest power) evaluated at αⁱ. */
function syndrome(codewords: readonly number[], i: number): number {
  let root = 1
  for (let k = 0; k < i; k++) root = gfTimes(root, 2)
  return codewords.reduce((sum, c) => gfTimes(sum, root) ^ c, 0)
}

const bit = (matrix: readonly (readonly boolean[])[], row: number, col: number) =>
  matrix[row]![col] ? 1 : 0

/** Both copies of the format information, bit 14 first (the standard's Figure 25). */
function readFormat(matrix: readonly (readonly boolean[])[]): [number, number] {
  const n = matrix.length
  const first: [number, number][] = [
    ...[0, 1, 2, 3, 4, 5, 7, 8].map((col): [number, number] => [8, col]),
    ...[7, 5, 4, 3, 2, 1, 0].map((row): [number, number] => [row, 8]),
  ]
  const second: [number, number][] = [
    ...[1, 2, 3, 4, 5, 6, 7].map((k): [number, number] => [n - k, 8]),
    ...[8, 7, 6, 5, 4, 3, 2, 1].map((k): [number, number] => [8, n - k]),
  ]
  const read = (cells: [number, number][]) =>
    cells.reduce((value, [r, c]) => (value << 1) | bit(matrix, r, c), 0)
  return [read(first), read(second)]
}

/**
 * Both copies of the version information: bit i at row ⌊i/3⌋, column n−11+(i mod 3) of the
 * top-right block, transposed in the bottom-left one (the standard's Figure 27).
 */
function readVersion(matrix: readonly (readonly boolean[])[]): [number, number] {
  const n = matrix.length
  let topRight = 0
  let bottomLeft = 0
  for (let i = 17; i >= 0; i--) {
    const a = Math.floor(i / 3)
    const b = n - 11 + (i % 3)
    topRight = (topRight << 1) | bit(matrix, a, b)
    bottomLeft = (bottomLeft << 1) | bit(matrix, b, a)
  }
  return [topRight, bottomLeft]
}

/** Checks the format and version information and the dark module; returns the mask. */
function expectInformation(matrix: readonly (readonly boolean[])[], ecc: QrEcc): number {
  const [first, second] = readFormat(matrix)
  expect(second, "the two copies of the format information").toBe(first)
  const mask = [0, 1, 2, 3, 4, 5, 6, 7].find((m) => formatBits(ecc, m) === first)
  expect(mask, `format information ${first.toString(2)} for level ${ecc}`).toBeDefined()
  expect(matrix[matrix.length - 8]![8], "the dark module").toBe(true)
  const version = versionOf(matrix)
  if (version >= 7)
    expect(readVersion(matrix)).toEqual([versionBits(version), versionBits(version)])
  return mask!
}

/** The standard's data masks (Table 10): whether the module at (i, j) is flipped. */
const MASK_CONDITIONS: ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
]

/**
 * The unmasked bits of the data modules of a version 1–6 symbol (one alignment pattern at
 * most, centred 7 modules from the bottom and right edges), in the order of the standard's
 * Figure 21: two-module columns from the right, up and down in turn, the right module first.
 */
function readDataBits(matrix: readonly (readonly boolean[])[], mask: number): number[] {
  const n = matrix.length
  const inFunction = (r: number, c: number) =>
    r === 6 ||
    c === 6 ||
    (r <= 8 && c <= 8) ||
    (r <= 8 && c >= n - 8) ||
    (r >= n - 8 && c <= 8) ||
    (n > 21 && Math.abs(r - (n - 7)) <= 2 && Math.abs(c - (n - 7)) <= 2)
  const bits: number[] = []
  const columns = [...Array(n).keys()].reverse().filter((c) => c !== 6)
  for (let pair = 0; pair * 2 < columns.length; pair++) {
    const rows = [...Array(n).keys()]
    if (pair % 2 === 0) rows.reverse()
    for (const r of rows) {
      for (const c of columns.slice(pair * 2, pair * 2 + 2)) {
        if (!inFunction(r, c)) bits.push(bit(matrix, r, c) ^ (MASK_CONDITIONS[mask]!(r, c) ? 1 : 0))
      }
    }
  }
  return bits
}

/** The data codewords of `text` in byte mode, by the standard's §7.4 (versions 1–9). */
function expectedData(text: string, capacity: number): number[] {
  const bits: number[] = []
  const push = (value: number, length: number) => {
    for (let k = length - 1; k >= 0; k--) bits.push((value >> k) & 1)
  }
  const bytes = new TextEncoder().encode(text)
  push(0b0100, 4)
  push(bytes.length, 8)
  for (const byte of bytes) push(byte, 8)
  push(0, Math.min(4, capacity * 8 - bits.length))
  while (bits.length % 8) bits.push(0)
  const codewords: number[] = []
  for (let k = 0; k < bits.length; k += 8) {
    codewords.push(bits.slice(k, k + 8).reduce((value, b) => (value << 1) | b, 0))
  }
  for (let pad = 0; codewords.length < capacity; pad++) codewords.push(pad % 2 ? 0x11 : 0xec)
  return codewords
}

/** ASCII text of `length` characters that is not one repeated byte. */
const filler = (length: number) =>
  Array.from({ length }, (_, i) => "Latch QR 0123456789 abcdefghij/?&="[(i * 7) % 34]).join("")

/**
 * Byte mode capacity of versions 1–20 at L, M, Q and H: the standard's Table 7, independent of
 * the block table the encoder uses.
 */
const CAPACITY: Record<QrEcc, readonly number[]> = {
  L: [
    17, 32, 53, 78, 106, 134, 154, 192, 230, 271, 321, 367, 425, 458, 520, 586, 644, 718, 792, 858,
  ],
  M: [
    14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
  ],
  Q: [11, 20, 32, 46, 60, 74, 86, 108, 130, 151, 177, 203, 241, 258, 292, 322, 364, 394, 442, 482],
  H: [7, 14, 24, 34, 44, 58, 64, 84, 98, 119, 137, 155, 177, 194, 220, 250, 280, 310, 338, 382],
}

describe("QR codes read by zbarimg", () => {
  it("an otpauth:// enrolment URI, at the default level M", async () => {
    const matrix = qrMatrix(OTPAUTH)
    expect(versionOf(matrix)).toBe(7)
    expect(await decode(matrix)).toBe(OTPAUTH)
  })

  it("the URI at every error correction level", async () => {
    const versions: Record<string, number> = {}
    for (const ecc of LEVELS) {
      const matrix = qrMatrix(OTPAUTH, { ecc })
      versions[ecc] = versionOf(matrix)
      expectInformation(matrix, ecc)
      expect(await decode(matrix)).toBe(OTPAUTH)
    }
    // More error correction, fewer data codewords: the version grows with the level.
    expect(versions).toEqual({ L: 6, M: 7, Q: 9, H: 10 })
  })

  it.each([
    [1, "Latch"],
    [2, filler(20)],
    [6, filler(100)],
    [7, filler(120)],
    [10, filler(200)],
    [14, filler(350)],
    [20, filler(660)],
  ])("texts that take version %i (with version information from 7 on)", async (version, text) => {
    const matrix = qrMatrix(text)
    expect(versionOf(matrix)).toBe(version)
    expect(matrix).toHaveLength(17 + 4 * version)
    for (const row of matrix) expect(row).toHaveLength(17 + 4 * version)
    expectInformation(matrix, "M")
    expect(await decode(matrix)).toBe(text)
  })

  it("UTF-8 text", async () => {
    const text = "Grüße aus Zürich, 東京 and Kraków — ключ 🔐"
    expect(await decode(qrMatrix(text))).toBe(text)
    expect(await decode(qrMatrix(text, { ecc: "H" }))).toBe(text)
  })

  it("the empty text", async () => {
    expect(versionOf(qrMatrix(""))).toBe(1)
    expect(await decode(qrMatrix(""))).toBe("")
  })

  it("every version 1–20 at every level, filled to the capacity of the standard's Table 7", async () => {
    const cases = LEVELS.flatMap((ecc) =>
      CAPACITY[ecc].map((capacity, i) => ({ ecc, version: i + 1, capacity })),
    )
    await eachLimited(cases, async ({ ecc, version, capacity }) => {
      const text = filler(capacity)
      const matrix = qrMatrix(text, { ecc })
      expect(versionOf(matrix), `${capacity} bytes at ${ecc}`).toBe(version)
      expectInformation(matrix, ecc)
      if (version < 20) {
        expect(versionOf(qrMatrix(filler(capacity + 1), { ecc }))).toBe(version + 1)
      }
      expect(await decode(matrix), `version ${version}-${ecc}`).toBe(text)
    })
  }, 120_000)
})

describe("qrMatrix", () => {
  it("is 21×21 for version 1, with the three finder patterns in the corners", () => {
    const matrix = qrMatrix("hello")
    expect(matrix).toHaveLength(21)
    for (const row of matrix) expect(row).toHaveLength(21)
    const finder = ["1111111", "1000001", "1011101", "1011101", "1011101", "1000001", "1111111"]
    const at = (top: number, left: number) =>
      finder.map((_, r) =>
        Array.from({ length: 7 }, (_, c) => (matrix[top + r]![left + c] ? "1" : "0")).join(""),
      )
    expect(at(0, 0)).toEqual(finder)
    expect(at(0, 14)).toEqual(finder)
    expect(at(14, 0)).toEqual(finder)
    // Timing patterns, and the dark module above the bottom-left finder's separator.
    expect(matrix[6]!.slice(8, 13)).toEqual([true, false, true, false, true])
    expect(matrix.slice(8, 13).map((row) => row[6])).toEqual([true, false, true, false, true])
    expect(matrix[13]![8]).toBe(true)
  })

  it("throws a RangeError beyond version 20", () => {
    expect(() => qrMatrix(filler(666))).not.toThrow()
    expect(() => qrMatrix(filler(667))).toThrow(RangeError)
    expect(() => qrMatrix(filler(858), { ecc: "L" })).not.toThrow()
    expect(() => qrMatrix(filler(859), { ecc: "L" })).toThrow(RangeError)
    // Bytes, not characters: 200 three-byte characters are 600 bytes, over H's 382.
    expect(() => qrMatrix("東".repeat(200), { ecc: "H" })).toThrow(RangeError)
    expect(() => qrMatrix("x", { ecc: "X" as QrEcc })).toThrow(RangeError)
  })

  it("is deterministic", () => {
    expect(qrMatrix(OTPAUTH)).toEqual(qrMatrix(OTPAUTH))
  })
})

describe("a strict reading of the symbols", () => {
  // The symbols of one error correction block: versions 1 and 2, and the lower levels of 3–5.
  const singleBlock: [number, QrEcc][] = [
    ...LEVELS.flatMap((ecc): [number, QrEcc][] => [
      [1, ecc],
      [2, ecc],
    ]),
    [3, "L"],
    [3, "M"],
    [4, "L"],
    [5, "L"],
  ]

  it.each(singleBlock)(
    "version %i-%s holds exactly the standard's codewords, mask and padding",
    (version, ecc) => {
      const capacity = CAPACITY[ecc][version - 1]!
      const total = [26, 44, 70, 100, 134][version - 1]! // the standard's Table 1
      const previous = version === 1 ? 0 : CAPACITY[ecc][version - 2]!
      for (const length of [previous + 1, Math.floor((previous + capacity) / 2), capacity]) {
        const text = filler(length)
        const matrix = qrMatrix(text, { ecc })
        expect(versionOf(matrix)).toBe(version)
        const bits = readDataBits(matrix, expectInformation(matrix, ecc))
        expect(bits.length - total * 8, "remainder bits").toBe(version === 1 ? 0 : 7)
        expect(
          bits.slice(total * 8).every((b) => b === 0),
          "remainder bits are 0",
        ).toBe(true)
        const codewords = Array.from({ length: total }, (_, k) =>
          bits.slice(k * 8, k * 8 + 8).reduce((value, b) => (value << 1) | b, 0),
        )
        const dataLength = capacity + 2 // mode and count take 12 bits, the terminator 4
        expect(codewords.slice(0, dataLength)).toEqual(expectedData(text, dataLength))
        for (let i = 0; i < total - dataLength; i++) {
          expect(syndrome(codewords, i), `syndrome ${i}`).toBe(0)
        }
      }
    },
  )

  it("the Reed–Solomon codewords vanish at α⁰…αⁿ⁻¹ for every degree of versions 1–20", () => {
    const data = Array.from({ length: 40 }, (_, i) => (i * 89 + 17) % 256)
    for (const degree of [7, 10, 13, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30]) {
      const codewords = [...data, ...reedSolomonRemainder(data, degree)]
      for (let i = 0; i < degree; i++) expect(syndrome(codewords, i), `${degree}, α^${i}`).toBe(0)
      expect(syndrome(codewords, degree)).not.toBe(0)
    }
  })
})

describe("format and version information", () => {
  // The standard's Table C.1 (bits 14 to 0, after the XOR with 101010000010010).
  it.each([
    ["L", 0, "111011111000100"],
    ["L", 4, "110011000101111"],
    ["L", 7, "110100101110110"],
    ["M", 0, "101010000010010"],
    ["M", 2, "101111001111100"],
    ["M", 5, "100000011001110"],
    ["Q", 1, "011000001101000"],
    ["Q", 6, "010111011011010"],
    ["H", 3, "001100111010000"],
    ["H", 7, "000100000111011"],
  ] as const)("level %s, mask %i: %s", (ecc, mask, bits) => {
    expect(formatBits(ecc, mask).toString(2).padStart(15, "0")).toBe(bits)
  })

  // The standard's Table D.1.
  it.each([
    [7, 0x07c94],
    [8, 0x085bc],
    [10, 0x0a4d3],
    [14, 0x0e60d],
    [20, 0x149a6],
  ])("version %i: %s", (version, bits) => {
    expect(versionBits(version)).toBe(bits)
  })
})

describe("Reed–Solomon", () => {
  it("gives the error correction codewords of the standard's Annex I example (01234567, 1-M)", () => {
    const data = [
      0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec,
      0x11,
    ]
    expect([...reedSolomonRemainder(data, 10)]).toEqual([
      0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55,
    ])
  })

  it("gives a remainder that makes the whole block divisible (HELLO WORLD, 1-M)", () => {
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
    const ecc = reedSolomonRemainder(data, 10)
    expect([...ecc]).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    // Data followed by its error correction is a codeword: dividing it leaves nothing.
    expect([...reedSolomonRemainder([...data, ...ecc], 10)]).toEqual(new Array(10).fill(0))
  })
})

describe("qrSvg", () => {
  /** The dark modules that the path's `M x y h w v1 h-w z` rectangles cover. */
  function rasterise(svg: string, side: number): boolean[][] {
    const d = /<path [^>]*d="([^"]*)"/.exec(svg)![1]!
    const grid = Array.from({ length: side }, () => new Array<boolean>(side).fill(false))
    const rectangle = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/y
    let match: RegExpExecArray | null
    while ((match = rectangle.exec(d))) {
      const [, x, y, w, back] = match.map(Number) as number[]
      expect(back).toBe(w)
      for (let i = 0; i < w!; i++) grid[y!]![x! + i] = true
    }
    expect(rectangle.lastIndex === 0 ? d.length : rectangle.lastIndex).toBe(d.length)
    return grid
  }

  it("is one well-formed <svg> with a single path, scaled, with the quiet zone", () => {
    const svg = qrSvg("hello")
    // Version 1: 21 modules and 4 on each side, 4 px each by default.
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="116" height="116" /)
    expect(svg).toContain('viewBox="0 0 29 29"')
    expect(svg).toContain('shape-rendering="crispEdges"')
    expect(svg).toContain('role="img"')
    expect(svg).toContain('aria-label="QR code"')
    // Well-formed: the grammar of exactly what it is, an element with two empty children,
    // every attribute quoted and free of `<` and of `&` outside an entity.
    const attributes = `(?: [a-zA-Z:-]+="(?:[^"<&]|&(?:amp|lt|gt|quot|#39);)*")*`
    const shape = new RegExp(`^<svg${attributes}><rect${attributes}/><path${attributes}/></svg>$`)
    expect(svg).toMatch(shape)
    expect(svg.match(/<path/g)).toHaveLength(1)
    expect(svg).toContain('<rect width="29" height="29" fill="#fff"/>')
    expect(svg).toContain('<path fill="#000" d="M')
    expect(svg).not.toMatch(/script|href|url\(|<style|<image|<foreignObject|on[a-z]+=/i)
  })

  it("escapes its label", () => {
    const svg = qrSvg("x", { label: `Scan <me> & "enrol" 'now'` })
    expect(svg).toContain('aria-label="Scan &lt;me&gt; &amp; &quot;enrol&quot; &#39;now&#39;"')
    expect(svg).not.toContain("<me>")
  })

  it("draws exactly the modules of qrMatrix, and zbarimg reads the drawing", async () => {
    for (const [text, ecc] of [
      ["", "M"],
      [OTPAUTH, "M"],
      [filler(300), "Q"],
    ] as const) {
      const matrix = qrMatrix(text, { ecc })
      const margin = 2
      const side = matrix.length + 2 * margin
      const svg = qrSvg(text, { ecc, margin, moduleSize: 3 })
      expect(svg).toContain(`width="${side * 3}" height="${side * 3}"`)
      const drawn = rasterise(svg, side)
      const expected = Array.from({ length: side }, (_, y) =>
        Array.from({ length: side }, (_, x) => matrix[y - margin]?.[x - margin] === true),
      )
      expect(drawn).toEqual(expected)
      if (text) {
        const inner = drawn.slice(margin, -margin).map((row) => row.slice(margin, -margin))
        expect(await decode(inner)).toBe(text)
      }
    }
  })

  it("rejects a module size or margin that cannot be drawn", () => {
    expect(() => qrSvg("x", { moduleSize: 0 })).toThrow(RangeError)
    expect(() => qrSvg("x", { moduleSize: Number.NaN })).toThrow(RangeError)
    expect(() => qrSvg("x", { margin: -1 })).toThrow(RangeError)
    expect(() => qrSvg("x", { margin: 1.5 })).toThrow(RangeError)
    expect(qrSvg("x", { margin: 0 })).toContain('viewBox="0 0 21 21"')
  })
})
