/**
 * The QR code of two-factor enrolment's `otpauth://` URI, as an inline `<svg>`: no script runs
 * on the page and nothing is fetched, which the pages' CSP (`default-src 'none'`) would refuse
 * anyway. The symbol comes from `uqr` (modules only); the drawing is ours, because the pages need
 * what its own SVG lacks: an accessible name, a pixel size, crisp edges and a compact path.
 */
import { encode } from "uqr"

/** Side of one module, in CSS pixels: 4 is what phone cameras read from a laptop screen. */
const MODULE_PX = 4
/** Light modules around the symbol: the standard asks for 4, and readers need them. */
const QUIET_ZONE = 4

export interface QrSvgOptions {
  /** Accessible name of the image (`aria-label`); "QR code" by default. */
  label?: string
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
}

/** Bytes of text a QR code holds at level M: version 40, the largest (177 × 177 modules). */
export const QR_MAX_BYTES = 2331

/**
 * The modules of the QR code of `text` (UTF-8, byte mode for anything but digits or upper-case
 * alphanumerics): rows from top to bottom, `true` for dark, without the quiet zone. Level M at
 * least — the usual trade-off for screens — raised to Q or H where the same symbol holds it,
 * since a stronger code of the same size costs nothing. A RangeError past `QR_MAX_BYTES`.
 */
export function qrModules(text: string): boolean[][] {
  try {
    return encode(text, { ecc: "M", boostEcc: true, border: 0 }).data
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause
    const bytes = new TextEncoder().encode(text).length
    throw new RangeError(
      `QR code: ${bytes} bytes do not fit in a QR code (${QR_MAX_BYTES} at most). An ` +
        "otpauth:// URI this long comes from a long twoFactor.issuer (or account name): shorten it.",
      { cause },
    )
  }
}

/**
 * `text` as one `<svg>` element: black modules on a white square (readers need the contrast and
 * the quiet zone whatever the page's colours), one `<path>` with a rectangle per horizontal run
 * of dark modules, in module units scaled by the viewBox. `crispEdges` keeps anti-aliasing from
 * blurring the module boundaries.
 */
export function qrSvg(text: string, options: QrSvgOptions = {}): string {
  const modules = qrModules(text)
  const side = modules.length + 2 * QUIET_ZONE
  let d = ""
  modules.forEach((row, r) => {
    let c = 0
    while (c < row.length) {
      const start = row.indexOf(true, c)
      if (start === -1) break
      c = row.indexOf(false, start)
      if (c === -1) c = row.length
      d += `M${start + QUIET_ZONE} ${r + QUIET_ZONE}h${c - start}v1h-${c - start}z`
    }
  })
  const pixels = side * MODULE_PX
  const label = escapeAttribute(options.label ?? "QR code")
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" ` +
    `viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" role="img" aria-label="${label}">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  )
}
