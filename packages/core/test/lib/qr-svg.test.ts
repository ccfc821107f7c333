/**
 * The enrolment QR code: what the setup page inlines must be read back, by a reader independent
 * of the encoder (jsqr, on the drawing rasterised to pixels), as exactly the `otpauth://` URI —
 * and be drawn as the page needs it: the quiet zone, level M or stronger, crisp modules, an
 * accessible name, nothing for the CSP to refuse.
 */
import { describe, expect, it } from "vitest"
import { encodeBase32, otpauthUri } from "../../src/flows/two-factor/totp.js"
import { QR_MAX_BYTES, qrModules, qrSvg } from "../../src/lib/qr-svg.js"
import { readQrSvg, svgModules } from "../helpers/qr-reader.js"

const secret = (seed: number, bytes = 20) =>
  encodeBase32(Uint8Array.from({ length: bytes }, (_, i) => (i * 37 + seed) % 256))

const URIS = {
  usual: otpauthUri({ issuer: "Example", account: "alice@example.com", secret: secret(1) }),
  // The longest an address can be (254 characters), a long issuer and a 256-bit secret.
  long: otpauthUri({
    issuer: "Example Corporation — Internal Tools (Staging, eu-west)",
    account: `${"a".repeat(64)}@${"sub-domain-".repeat(17)}example.com`.slice(0, 254),
    secret: secret(2, 32),
  }),
  // Non-ASCII names: percent-encoded UTF-8 in the label, form-encoded in the query.
  nonAscii: otpauthUri({
    issuer: "Zürich Crédit 東京",
    account: "ñandú@exämple.com",
    secret: secret(3),
  }),
}

/** The standard's format information: level indicators (L 01, M 00, Q 11, H 10). */
const LEVELS = ["M", "L", "H", "Q"] as const

/**
 * The error correction level in the symbol's format information, read from both copies (the
 * standard's §7.9: 15 bits, XOR 101010000010010, 5 data bits checked by a BCH(15,5) code).
 */
function levelOf(modules: readonly (readonly boolean[])[]): (typeof LEVELS)[number] {
  const n = modules.length
  const read = (cells: [number, number][]) =>
    cells.reduce((value, [r, c]) => (value << 1) | (modules[r]![c] ? 1 : 0), 0)
  const first = read([
    ...[0, 1, 2, 3, 4, 5, 7, 8].map((c): [number, number] => [8, c]),
    ...[7, 5, 4, 3, 2, 1, 0].map((r): [number, number] => [r, 8]),
  ])
  const second = read([
    ...[1, 2, 3, 4, 5, 6, 7].map((k): [number, number] => [n - k, 8]),
    ...[8, 7, 6, 5, 4, 3, 2, 1].map((k): [number, number] => [8, n - k]),
  ])
  expect(second, "the two copies of the format information").toBe(first)
  const format = first ^ 0b101010000010010
  let remainder = (format >> 10) << 10
  for (let bit = 14; bit >= 10; bit--) if (remainder & (1 << bit)) remainder ^= 0x537 << (bit - 10)
  expect(remainder, "the format information's BCH code").toBe(format & 0x3ff)
  return LEVELS[format >> 13]!
}

/** The symbol inside the quiet zone, after checking that the zone is 4 light modules. */
function symbolOf(svg: string): boolean[][] {
  const drawn = svgModules(svg)
  const zone = (row: readonly boolean[], r: number) =>
    r < 4 || r >= drawn.length - 4 ? row : [...row.slice(0, 4), ...row.slice(-4)]
  expect(drawn.every((row, r) => zone(row, r).every((dark) => !dark))).toBe(true)
  // The top-left finder pattern starts right after the zone: the zone is not wider either.
  expect(drawn[4]![4]).toBe(true)
  return drawn.slice(4, -4).map((row) => row.slice(4, -4))
}

describe("the enrolment QR code", () => {
  it.each(Object.entries(URIS))("carries the %s otpauth:// URI exactly", (_, uri) => {
    const svg = qrSvg(uri, { label: "QR code for your authenticator app" })
    const read = readQrSvg(svg)
    expect(read.text).toBe(uri)
    expect(read.bytes).toEqual([...new TextEncoder().encode(uri)])
    const symbol = symbolOf(svg)
    expect(symbol).toHaveLength(17 + 4 * read.version)
    expect(["M", "Q", "H"]).toContain(levelOf(symbol))
  })

  it("is the smallest symbol that holds the usual URI, 4 px a module", () => {
    // 131 bytes: more than version 7 holds at level M (122, the standard's Table 7), not 8 (152).
    expect(URIS.usual).toHaveLength(131)
    const svg = qrSvg(URIS.usual)
    expect(readQrSvg(svg).version).toBe(8)
    // 49 modules and 4 on each side.
    expect(svg).toContain('viewBox="0 0 57 57"')
    expect(svg).toMatch(/^<svg [^>]*width="228" height="228"/)
  })

  it("is read at the smallest drawing a screen might show, 2 px a module", () => {
    expect(readQrSvg(qrSvg(URIS.long), 2).text).toBe(URIS.long)
  })

  it("encodes text as UTF-8, in byte mode", () => {
    // A URI whose names were left as they are, not percent-encoded: the bytes are UTF-8.
    const text = "otpauth://totp/Zürich:josé@exämple.com?secret=JBSWY3DPEHPK3PXP&issuer=東京 🔐"
    const read = readQrSvg(qrSvg(text))
    expect(read.text).toBe(text)
    expect(read.bytes).toEqual([...new TextEncoder().encode(text)])
  })

  it("is level M at least even where the text is all digits or capitals (other modes)", () => {
    for (const text of ["0123456789012345", "OTPAUTH://TOTP/EXAMPLE"]) {
      const svg = qrSvg(text)
      expect(readQrSvg(svg).text).toBe(text)
      expect(["M", "Q", "H"]).toContain(levelOf(symbolOf(svg)))
    }
  })

  it("is one well-formed <svg> with a single path and an accessible name", () => {
    const svg = qrSvg(URIS.usual, { label: "QR code for your authenticator app" })
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /)
    expect(svg).toContain('shape-rendering="crispEdges"')
    expect(svg).toContain('role="img"')
    expect(svg).toContain('aria-label="QR code for your authenticator app"')
    // The grammar of exactly what it is: an element with two empty children, every attribute
    // quoted and free of `<` and of `&` outside an entity.
    const attributes = `(?: [a-zA-Z:-]+="(?:[^"<&]|&(?:amp|lt|gt|quot|#39);)*")*`
    expect(svg).toMatch(
      new RegExp(`^<svg${attributes}><rect${attributes}/><path${attributes}/></svg>$`),
    )
    expect(svg).not.toMatch(/script|href|url\(|<style|<image|<foreignObject|on[a-z]+=/i)
    expect(qrSvg("x")).toContain('aria-label="QR code"')
  })

  it("escapes its label", () => {
    const svg = qrSvg("x", { label: `Scan <me> & "enrol" 'now'` })
    expect(svg).toContain('aria-label="Scan &lt;me&gt; &amp; &quot;enrol&quot; &#39;now&#39;"')
    expect(svg).not.toContain("<me>")
  })

  it("draws exactly the encoder's modules, and is the same for the same text", () => {
    const modules = qrModules(URIS.nonAscii)
    expect(symbolOf(qrSvg(URIS.nonAscii))).toEqual(modules)
    expect(qrSvg(URIS.nonAscii)).toBe(qrSvg(URIS.nonAscii))
  })

  it("holds up to 2,331 bytes (version 40 at level M), and throws a RangeError past them", () => {
    expect(QR_MAX_BYTES).toBe(2331)
    expect(qrModules("a".repeat(2331))).toHaveLength(177)
    expect(() => qrModules("a".repeat(2332))).toThrow(RangeError)
    // Bytes, not characters: 1,000 three-byte characters are 3,000 bytes.
    expect(() => qrModules("東".repeat(1000))).toThrow(
      /^QR code: 3000 bytes do not fit in a QR code \(2331 at most\)\. .*twoFactor\.issuer/,
    )
  })
})
