/** The HTML document around every built-in page: one card, inline styles, no scripts. */
import type { Theme } from "../types.js"
import { html, raw, type SafeHtml } from "./html.js"

const DEFAULT_BRAND = "#4f46e5"
const DEFAULT_BUTTON_TEXT = "#ffffff"

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const FUNCTIONAL = /^(?:rgba?|hsla?)\([\d\s,.%]+\)$/i
const NAMED = /^[a-z]+$/i
const CSS_WIDE = new Set(["inherit", "initial", "unset", "revert", "currentcolor"])

/** Returns `value` if it is a CSS color we accept, else `undefined`. */
export function safeCssColor(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const color = value.trim()
  if (color.length === 0 || color.length > 64) return undefined
  if (HEX.test(color) || FUNCTIONAL.test(color)) return color
  if (NAMED.test(color) && !CSS_WIDE.has(color.toLowerCase())) return color.toLowerCase()
  return undefined
}

/** Returns `value` if it is an absolute http(s) URL or a root-relative path, else `undefined`. */
export function safeLogoUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const url = value.trim()
  if (url.startsWith("/")) {
    return url.startsWith("//") || url.startsWith("/\\") || /[\s\\]/.test(url) ? undefined : url
  }
  if (!/^https?:\/\//i.test(url)) return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

/** The relative luminance of a `#hex` or `rgb()` color, if it can be worked out. */
function luminance(color: string): number | undefined {
  let rgb: number[] | undefined
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color)?.[1]
  if (hex) {
    const digits = hex.length <= 4 ? [...hex].map((d) => d + d) : (hex.match(/../g) ?? [])
    rgb = digits.slice(0, 3).map((d) => parseInt(d, 16))
  } else {
    const parts = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(color)
    if (parts) rgb = parts.slice(1, 4).map(Number)
  }
  if (!rgb || rgb.length !== 3) return undefined
  const [r = 0, g = 0, b = 0] = rgb.map((v) => {
    const c = Math.min(v, 255) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

const LIGHT = `
  color-scheme: light;
  --bg: #f4f4f5;
  --card: #ffffff;
  --text: #18181b;
  --muted: #52525b;
  --border: #e4e4e7;
  --input-bg: #ffffff;
  --input-border: #d4d4d8;
  --secondary-hover: #f4f4f5;
  --shadow: 0 1px 2px rgb(0 0 0 / 0.04), 0 8px 24px rgb(0 0 0 / 0.06);
  --error-bg: #fef2f2;
  --error-border: #fecaca;
  --error-text: #991b1b;
  --link: var(--brand);`

const DARK = `
  color-scheme: dark;
  --bg: #09090b;
  --card: #18181b;
  --text: #fafafa;
  --muted: #a1a1aa;
  --border: #27272a;
  --input-bg: #09090b;
  --input-border: #3f3f46;
  --secondary-hover: #27272a;
  --shadow: 0 1px 2px rgb(0 0 0 / 0.4), 0 8px 24px rgb(0 0 0 / 0.4);
  --error-bg: rgb(239 68 68 / 0.12);
  --error-border: rgb(239 68 68 / 0.35);
  --error-text: #fca5a5;
  --link: color-mix(in srgb, var(--brand) 55%, #ffffff);`

const BASE = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  min-height: 100dvh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 40px 16px;
  background: var(--bg);
  color: var(--text);
  font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
    Arial, "Noto Sans", sans-serif;
  font-size: 16px;
  line-height: 1.5;
  -webkit-font-smoothing: antialiased;
}
.page { width: 100%; max-width: 400px; display: flex; flex-direction: column; align-items: center; gap: 24px; }
.logo { display: block; max-width: 200px; max-height: 56px; object-fit: contain; }
main {
  width: 100%;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 16px;
  box-shadow: var(--shadow);
  padding: 36px 32px;
}
h1 { margin: 0 0 24px; font-size: 1.5rem; line-height: 1.25; font-weight: 700; letter-spacing: -0.01em; text-align: center; }
h1:has(+ p) { margin-bottom: 8px; }
p { margin: 0 0 16px; }
.lead { color: var(--muted); text-align: center; margin-bottom: 24px; }
.lead:has(+ .advice) { margin-bottom: 12px; }
.advice { text-align: center; margin-bottom: 24px; }
a { color: var(--link); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
form { display: flex; flex-direction: column; gap: 16px; margin: 0; }
.stack { display: flex; flex-direction: column; gap: 12px; }
.field { display: flex; flex-direction: column; gap: 6px; }
.hint { margin: -8px 0 0; font-size: 0.8125rem; color: var(--muted); }
label { font-size: 0.875rem; font-weight: 500; }
input {
  width: 100%;
  font: inherit;
  font-size: 1rem;
  color: var(--text);
  background: var(--input-bg);
  border: 1px solid var(--input-border);
  border-radius: 8px;
  padding: 10px 12px;
  min-height: 44px;
}
input::placeholder { color: var(--muted); opacity: 0.75; }
input:focus { outline: none; border-color: var(--brand); box-shadow: 0 0 0 3px color-mix(in srgb, var(--brand) 30%, transparent); }
.button {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 44px;
  padding: 10px 16px;
  border-radius: 8px;
  border: 1px solid transparent;
  font: inherit;
  font-weight: 600;
  line-height: 1.25;
  text-align: center;
  text-decoration: none;
  cursor: pointer;
  transition: background-color 0.15s, filter 0.15s, border-color 0.15s;
}
.primary { background: var(--brand); color: var(--brand-text); }
.primary:hover { filter: brightness(1.1); text-decoration: none; }
.secondary { background: var(--card); color: var(--text); border-color: var(--input-border); }
.secondary:hover { background: var(--secondary-hover); text-decoration: none; }
:focus-visible { outline: 2px solid var(--brand); outline-offset: 2px; }
input:focus-visible { outline: none; }
details { margin-top: 20px; }
summary { cursor: pointer; color: var(--link); font-size: 0.9375rem; }
details[open] summary { margin-bottom: 16px; }
.divider { display: flex; align-items: center; gap: 12px; margin: 24px 0; color: var(--muted); font-size: 0.8125rem; text-transform: uppercase; letter-spacing: 0.06em; }
.divider::before, .divider::after { content: ""; flex: 1; height: 1px; background: var(--border); }
.alert {
  margin: 0 0 24px;
  padding: 12px 14px;
  border-radius: 8px;
  background: var(--error-bg);
  border: 1px solid var(--error-border);
  color: var(--error-text);
  font-size: 0.9375rem;
}
form .alert { margin: 0; }
.alert p { margin: 0; }
.alert .code { margin-top: 4px; font-size: 0.8125rem; opacity: 0.85; }
.alert code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.notes { margin: 0 0 24px; padding-left: 20px; color: var(--muted); font-size: 0.9375rem; }
.notes li + li { margin-top: 6px; }
.actions { display: flex; flex-direction: column; gap: 12px; margin-top: 8px; }
.footer-link { text-align: center; font-size: 0.9375rem; margin: 16px 0 0; }
@media (max-width: 480px) {
  body { padding: 32px 16px; align-items: flex-start; }
  main { padding: 28px 20px; border-radius: 14px; }
  .page { gap: 20px; }
}
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`

function styles(theme: Theme): string {
  const brand = safeCssColor(theme.brandColor) ?? DEFAULT_BRAND
  let buttonText = safeCssColor(theme.buttonText)
  if (!buttonText) {
    const l = luminance(brand)
    buttonText = l !== undefined && l > 0.3 ? "#18181b" : DEFAULT_BUTTON_TEXT
  }
  const vars = `--brand: ${brand};\n  --brand-text: ${buttonText};`
  const scheme = theme.colorScheme
  const colors =
    scheme === "dark"
      ? `:root {${DARK}\n}`
      : scheme === "light"
        ? `:root {${LIGHT}\n}`
        : `:root {${LIGHT}\n}\n@media (prefers-color-scheme: dark) {\n:root {${DARK}\n}\n}`
  return `:root {\n  ${vars}\n}\n${colors}\n${BASE}`
}

export interface LayoutOptions {
  title: string
  theme: Theme
  /** The card's content. */
  body: SafeHtml
}

/**
 * The page's icon: the theme's logo, else a small padlock in the brand colour drawn inline. With
 * no `<link rel="icon">`, browsers ask the site for `/favicon.ico`, which an app may not have: a
 * 404 logged on every built-in page. A `data:` URL costs no request (the policy allows `data:`
 * images).
 */
function iconUrl(theme: Theme, logo: string | undefined): string {
  if (logo) return logo
  const brand = safeCssColor(theme.brandColor) ?? DEFAULT_BRAND
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="8" fill="${brand}"/>` +
    `<path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="#fff" stroke-width="2.5"/>` +
    `<rect x="8" y="14" width="16" height="11" rx="2.5" fill="#fff"/></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/** Renders a full HTML document with `body` in a centred card. */
export function layout({ title, theme, body }: LayoutOptions): string {
  const logo = safeLogoUrl(theme.logo)
  const scheme = theme.colorScheme === "dark" || theme.colorScheme === "light"
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta name="color-scheme" content="${scheme ? theme.colorScheme : "light dark"}" />
        <title>${title}</title>
        <link rel="icon" href="${iconUrl(theme, logo)}" />
        <style>
          ${raw(styles(theme))}
        </style>
      </head>
      <body>
        <div class="page">
          ${logo ? html`<img class="logo" src="${logo}" alt="Logo" />` : ""}
          <main>${body}</main>
        </div>
      </body>
    </html> `.toString()
}
