// The look the demo's pages and the built-in pages (/auth/…) share: what look.spec.ts and
// screenshots.spec.ts compare, as the browser computes it.
import { expect, type Page } from "@playwright/test"

export interface Look {
  fontFamily: string
  background: string
  text: string
  /** The main button's background and text colour, and its corners, when the page has one. */
  button?: { background: string; color: string; radius: string }
  /** A text field's border colour and corners, when the page has one. */
  field?: { border: string; radius: string }
  /** The card's background, border colour and corners. */
  card: { background: string; border: string; radius: string }
}

/**
 * The page's look. The card is the built-in pages' `<main>` or the demo's `.card`; the button
 * the card's first primary one (the built-in `.button.primary`, the demo's `.button` or
 * `button` without `.secondary`).
 */
export async function lookOf(page: Page): Promise<Look> {
  return page.evaluate(() => {
    const css = (element: Element) => getComputedStyle(element)
    const card = document.querySelector(".card") ?? document.querySelector("main")
    if (!card) throw new Error("the page has no card")
    const button = card.querySelector(
      ".button.primary, a.button:not(.secondary), button:not(.secondary)",
    )
    const field = card.querySelector("input:not([type=hidden])")
    const body = css(document.body)
    return {
      fontFamily: body.fontFamily,
      background: body.backgroundColor,
      text: body.color,
      ...(button && {
        button: {
          background: css(button).backgroundColor,
          color: css(button).color,
          radius: css(button).borderTopLeftRadius,
        },
      }),
      ...(field && {
        field: { border: css(field).borderTopColor, radius: css(field).borderTopLeftRadius },
      }),
      card: {
        background: css(card).backgroundColor,
        border: css(card).borderTopColor,
        radius: css(card).borderTopLeftRadius,
      },
    }
  })
}

/**
 * The demo's own look, read in a tab of its own: from the home page (its card and main button),
 * and the text field from its sign-in page.
 */
export async function demoLook(page: Page): Promise<Look> {
  const demo = await page.context().newPage()
  try {
    await demo.goto("/")
    await expect(demo.locator(".card")).toBeVisible()
    const look = await lookOf(demo)
    await demo.goto("/signin")
    const field = demo.locator(".card input:not([type=hidden])").first()
    await expect(field).toBeVisible()
    look.field = await field.evaluate((input) => ({
      border: getComputedStyle(input).borderTopColor,
      radius: getComputedStyle(input).borderTopLeftRadius,
    }))
    return look
  } finally {
    await demo.close()
  }
}

/** Checks that the page looks like the demo: fonts, colours, button, field and card. */
export async function expectSharedLook(page: Page, reference: Look) {
  const look = await lookOf(page)
  expect(look.fontFamily, "font").toBe(reference.fontFamily)
  expect(look.background, "page background").toBe(reference.background)
  expect(look.text, "text colour").toBe(reference.text)
  if (look.button) expect(look.button, "main button").toEqual(reference.button)
  expect(look.card, "card").toEqual(reference.card)
  if (look.field && reference.field) expect(look.field, "text field").toEqual(reference.field)
}

/** Checks that the page is not wider than the viewport (no sideways scrolling). */
export async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, "the page fits the viewport's width").toBeLessThanOrEqual(innerWidth)
}
