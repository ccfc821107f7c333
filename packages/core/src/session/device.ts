/**
 * What a session records of the device that signed in, for a page listing "where you are signed
 * in": a summary of its user agent from a fixed vocabulary ("Firefox on Linux"), never the header
 * itself — the client writes that header, and a summary is both what a person reads and too
 * coarse to fingerprint anyone. The client address is the platform's (`clientAddress`), as the
 * rate limits use it.
 */

/** Browsers, most specific first: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
]

/** Systems, most specific first: Android also says "Linux", iOS also says "Mac OS X". */
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, "Android"],
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
]

/** The longest user agent looked at: enough for any browser's, and a bound on the work. */
const MAX_LENGTH = 512

/** "Firefox on Linux", "Safari on iOS", "Chrome", "Windows"… or `null` when nothing is known. */
export function describeUserAgent(header: string | null | undefined): string | null {
  if (!header) return null
  const text = header.slice(0, MAX_LENGTH)
  const browser = BROWSERS.find(([pattern]) => pattern.test(text))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? null
}
