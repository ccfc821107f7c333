/**
 * The frame every mail of Latch's shares: one centred card in a table (what mail clients render
 * well), inline styles only, a heading, the rows a mail brings, and small print under a rule.
 * Values are escaped by the `html` template that builds the rows.
 */
import { html, type SafeHtml } from "./html.js"

/** The font stack of the mails. */
export const MAIL_FONT =
  "font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"

/** A whole mail document around its rows. */
export function mailFrame(parts: {
  subject: string
  heading: SafeHtml
  rows: SafeHtml
  footer: SafeHtml | string
}): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>${parts.subject}</title>
      </head>
      <body style="margin: 0; padding: 0; background: #f4f4f5">
        <table
          role="presentation"
          width="100%"
          cellpadding="0"
          cellspacing="0"
          border="0"
          style="background: #f4f4f5"
        >
          <tr>
            <td align="center" style="padding: 32px 16px">
              <table
                role="presentation"
                width="100%"
                cellpadding="0"
                cellspacing="0"
                border="0"
                style="max-width: 480px; background: #ffffff; border: 1px solid #e4e4e7; border-radius: 12px"
              >
                <tr>
                  <td
                    style="padding: 32px 32px 8px; ${MAIL_FONT}; font-size: 20px; font-weight: 600; color: #18181b"
                  >
                    ${parts.heading}
                  </td>
                </tr>
                ${parts.rows}
                <tr>
                  <td
                    style="padding: 16px 32px 32px; border-top: 1px solid #e4e4e7; ${MAIL_FONT}; font-size: 13px; line-height: 1.5; color: #71717a"
                  >
                    ${parts.footer}
                  </td>
                </tr>
              </table>
            </td>
          </tr>
        </table>
      </body>
    </html> `
}
