import { describe, expect, it } from "vitest"
import {
  renderTwoFactorPage,
  renderTwoFactorSetupPage,
  twoFactorErrorMessage,
} from "../../src/pages/two-factor.js"

/** The markup between a form's last field and its submit button, whitespace squeezed. */
function beforeSubmit(page: string, button: string): string {
  const end = page.indexOf(`<button type="submit" class="button primary">${button}</button>`)
  expect(end, `the ${button} button`).toBeGreaterThan(0)
  return page.slice(0, end).replace(/\s+/g, " ").trimEnd()
}

describe("two-factor pages", () => {
  const code = { theme: {}, csrfToken: "csrf", action: "/auth/two-factor", code: "wrong_code" }

  it("puts a refusal's alert directly above the code step's submit button", () => {
    const page = renderTwoFactorPage(code).html
    const message = twoFactorErrorMessage("wrong_code")!
    expect(beforeSubmit(page, "Verify")).toMatch(
      new RegExp(`<div class="alert" role="alert"> <p>${message}</p>.*</div>$`),
    )
    expect(page.indexOf('role="alert"')).toBeGreaterThan(page.indexOf('name="code"'))
  })

  it("puts a refusal's alert directly above the setup's submit button", () => {
    const page = renderTwoFactorSetupPage({
      ...code,
      action: "/auth/two-factor/setup",
      qrSvg: "<svg></svg>",
      secret: "JBSWY3DPEHPK3PXP",
      setup: "sealed",
      replacing: false,
    }).html
    expect(beforeSubmit(page, "Turn on")).toMatch(/<div class="alert" role="alert">.*<\/div>$/)
    expect(page.indexOf('role="alert"')).toBeGreaterThan(page.indexOf('class="qr"'))
  })

  it("shows no alert without a code", () => {
    expect(renderTwoFactorPage({ ...code, code: undefined }).html).not.toContain('role="alert"')
  })
})
