/**
 * Reads the QR codes Latch draws as a phone would read them off the screen: the `<svg>` drawn
 * into pixels (black on white, a few pixels a module), then decoded by `jsqr`, a QR reader that
 * shares nothing with the encoder. Tests need no system package for it.
 */
// jsqr is CommonJS: its function is the `default` of what an ES module import of it gets.
import jsqr from "jsqr"
import { expect } from "vitest"

/**
 * The modules the SVG draws, quiet zone included (`true` = dark): its viewBox's square of
 * modules, white, with the dark rectangles of its one path (`M x y h w v1 h-w z` each). Fails
 * on any other shape, so that a drawing this reading would misread cannot pass.
 */
export function svgModules(svg: string): boolean[][] {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  expect(viewBox, "a viewBox in module units").not.toBeNull()
  const side = Number(viewBox![1])
  expect(Number(viewBox![2]), "a square").toBe(side)
  expect(svg).toContain(`<rect width="${side}" height="${side}" fill="#fff"/>`)
  const d = /<path fill="#000" d="([^"]*)"\/>/.exec(svg)![1]!
  const grid = Array.from({ length: side }, () => new Array<boolean>(side).fill(false))
  const rectangle = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/y
  let match: RegExpExecArray | null
  while ((match = rectangle.exec(d))) {
    const [, x, y, w, back] = match.map(Number) as [number, number, number, number, number]
    expect(back, "each rectangle closes on itself").toBe(w)
    expect(x + w <= side && y < side, "inside the viewBox").toBe(true)
    for (let i = 0; i < w; i++) grid[y]![x + i] = true
  }
  expect(rectangle.lastIndex === 0 ? d.length : rectangle.lastIndex, "nothing else in d").toBe(
    d.length,
  )
  return grid
}

/** The modules as RGBA pixels, `scale` pixels a module, as a screen shows them. */
function pixels(modules: readonly (readonly boolean[])[], scale: number): Uint8ClampedArray {
  const side = modules.length * scale
  const rgba = new Uint8ClampedArray(side * side * 4)
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const value = modules[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255
      rgba.set([value, value, value, 255], (y * side + x) * 4)
    }
  }
  return rgba
}

export interface QrReading {
  /** The text, as the reader decodes the bytes (UTF-8). */
  text: string
  /** The bytes the symbol carries. */
  bytes: number[]
  /** The symbol's version (1–40): its side is 17 + 4 × version modules. */
  version: number
}

/** Decodes the QR code drawn by `svg`; fails when the reader finds none. */
export function readQrSvg(svg: string, scale = 4): QrReading {
  const modules = svgModules(svg)
  const side = modules.length * scale
  const code = jsqr.default(pixels(modules, scale), side, side, { inversionAttempts: "dontInvert" })
  expect(code, "jsqr finds a QR code in the drawing").not.toBeNull()
  return { text: code!.data, bytes: code!.binaryData, version: code!.version }
}
