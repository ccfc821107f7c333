/**
 * Pieces several built-in pages share: the one-time-code field, the recovery-code field, and an
 * alert that says what went wrong with the code it came with.
 */
import { html, type SafeHtml } from "./html.js"

/** A code as a refusal carries it (`?code=`), shown only when it looks like one. */
const SAFE_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** A 6-digit code field (an authenticator app's, or a mailed one). */
export function codeField(name: string, label: string): SafeHtml {
  return html`<div class="field">
    <label for="latch-${name}">${label}</label>
    <input
      id="latch-${name}"
      name="${name}"
      type="text"
      inputmode="numeric"
      autocomplete="one-time-code"
      pattern="[0-9 ]{6,7}"
      maxlength="7"
      required
    />
  </div>`
}

/** A recovery code field (`recoveryCode`). */
export function recoveryCodeField(): SafeHtml {
  return html`<div class="field">
    <label for="latch-recovery-code">Recovery code</label>
    <input
      id="latch-recovery-code"
      name="recoveryCode"
      type="text"
      autocomplete="off"
      autocapitalize="none"
      spellcheck="false"
      required
    />
  </div>`
}

/** The alert of a refusal: its message, and its code when it looks like one. */
export function codedAlert(
  message: string,
  code: string | undefined,
  role: "alert" | "status" = "alert",
): SafeHtml {
  return html`<div class="alert" role="${role}">
    <p>${message}</p>
    ${code !== undefined && SAFE_CODE.test(code) ? html`<p class="code">Code: <code>${code}</code></p>` : ""}
  </div>`
}
