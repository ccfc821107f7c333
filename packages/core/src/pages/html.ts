/**
 * A tiny HTML templating helper: `html` escapes every interpolated value unless it is a
 * `SafeHtml` made by `html` or `raw`.
 */

const brand: unique symbol = Symbol("latch.SafeHtml")

/** Markup that is safe to put in a page as it is. Only `html` and `raw` make one. */
export class SafeHtml {
  readonly [brand] = true
  readonly #value: string

  /** @internal Use `html` or `raw`. */
  constructor(value: string, key: typeof brand) {
    if (key !== brand) throw new TypeError("SafeHtml is made with html`` or raw()")
    this.#value = value
  }

  toString(): string {
    return this.#value
  }
}

const replacements: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
  "=": "&#61;",
}

/** Escapes text for use in element content or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`=]/g, (c) => replacements[c] ?? c)
}

/** Marks trusted markup as safe. Never pass anything that contains user input. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup, brand)
}

/** A value `html` accepts: text is escaped, `SafeHtml` is kept, arrays are joined. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[]

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString()
  if (Array.isArray(value)) return value.map(render).join("")
  if (value === null || value === undefined || value === false) return ""
  return escapeHtml(String(value))
}

/** A tagged template that escapes every interpolated value. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return new SafeHtml(out, brand)
}

/**
 * Returns `url` if a browser would treat it as an http(s) or relative URL, else `"#"`: keeps
 * `javascript:` and other schemes out of `href` and `action`.
 */
export function safeUrl(url: string): string {
  try {
    const { protocol } = new URL(url, "https://relative.invalid/")
    return protocol === "https:" || protocol === "http:" ? url : "#"
  } catch {
    return "#"
  }
}
