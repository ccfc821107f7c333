/** The built-in sign-out page. */
import { html, safeUrl } from "./html.js"
import { layout } from "./layout.js"
import type { RenderedPage, SignOutPageProps } from "./types.js"

/** Renders the sign-out confirmation page. */
export function renderSignOutPage(props: SignOutPageProps): RenderedPage {
  const body = html`<h1>Sign out</h1>
    <p class="lead">Are you sure you want to sign out?</p>
    <form method="post" action="${safeUrl(props.action)}">
      <input type="hidden" name="csrfToken" value="${props.csrfToken}" />
      <input type="hidden" name="callbackUrl" value="${props.callbackUrl}" />
      <button type="submit" class="button primary">Sign out</button>
    </form>`
  return { status: 200, html: layout({ title: "Sign out", theme: props.theme, body }) }
}
