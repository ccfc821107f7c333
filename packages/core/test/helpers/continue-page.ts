/**
 * A mailed link as a user follows it: the link opens a page with one button (scanners open
 * links, people press buttons), and the button posts the page's form.
 */
import { expect } from "vitest"
import type { Browser } from "./request.js"

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#96;": "`",
  "&#61;": "=",
}

const unescape = (value: string) =>
  value.replace(/&(?:amp|lt|gt|quot|#39|#96|#61);/g, (e) => ENTITIES[e]!)

/** The first post form of a page: where it posts, and its hidden fields. */
export function formOf(page: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(page)
  expect(form, "the page has a form").not.toBeNull()
  const fields: Record<string, string> = {}
  for (const input of form![2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescape(input[1]!)] = unescape(input[2]!)
  }
  return { action: unescape(form![1]!), fields }
}

/**
 * Opens `link` in `browser` and presses the page's button, having typed `typed` into the form
 * (the password a confirming page asks of another browser); returns the button's answer (or the
 * link's own, when it opened no page).
 */
export async function followLink(
  browser: Browser,
  link: string,
  typed: Record<string, string> = {},
): Promise<Response> {
  const opened = await browser.fetch(link)
  if (opened.status !== 200) return opened
  const { action, fields } = formOf(await opened.text())
  return browser.fetch(action, { form: { ...fields, ...typed } })
}
