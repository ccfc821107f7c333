/**
 * The one script of the built-in pages: the passkey form of the sign-in page. It fetches the
 * ceremony's options from the form's `data-options-url`, asks the browser for a credential
 * (`navigator.credentials.create` or `.get`, or the autofill when `data-conditional` is set;
 * `data-action` names the ceremony, e.g. `register` on the passkey sign-up page),
 * puts the credential's JSON into the form's hidden `action` and `data` fields and submits it:
 * the server's answer is an ordinary redirect. Without JavaScript the form stays hidden.
 *
 * It carries no data of its own (everything comes from escaped attributes), so it is a
 * constant, allowed by the page's Content-Security-Policy through a per-response nonce.
 */
import { html, raw, type SafeHtml } from "./html.js"

export const WEBAUTHN_SCRIPT = `(() => {
  const PKC = window.PublicKeyCredential
  const decode = (text) =>
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer
  const encode = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer)))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "")
  const withIds = (list) => (list || []).map((c) => ({ ...c, id: decode(c.id) }))
  const creationOptions = (o) =>
    PKC.parseCreationOptionsFromJSON
      ? PKC.parseCreationOptionsFromJSON(o)
      : { ...o, challenge: decode(o.challenge), user: { ...o.user, id: decode(o.user.id) },
          excludeCredentials: withIds(o.excludeCredentials) }
  const requestOptions = (o) =>
    PKC.parseRequestOptionsFromJSON
      ? PKC.parseRequestOptionsFromJSON(o)
      : { ...o, challenge: decode(o.challenge), allowCredentials: withIds(o.allowCredentials) }
  const toJSON = (credential) => {
    if (typeof credential.toJSON === "function") return credential.toJSON()
    const r = credential.response
    const response = { clientDataJSON: encode(r.clientDataJSON) }
    if (r.attestationObject) {
      response.attestationObject = encode(r.attestationObject)
      response.transports = r.getTransports ? r.getTransports() : []
    }
    if (r.authenticatorData) response.authenticatorData = encode(r.authenticatorData)
    if (r.signature) response.signature = encode(r.signature)
    if (r.userHandle) response.userHandle = encode(r.userHandle)
    return { id: credential.id, rawId: encode(credential.rawId), type: credential.type, response,
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment || undefined }
  }
  const ceremony = async (form, query, mediation, signal) => {
    const url = new URL(form.dataset.optionsUrl, location.href)
    for (const [key, value] of Object.entries(query)) if (value) url.searchParams.set(key, value)
    const response = await fetch(url, { credentials: "same-origin", signal })
    // A refusal (registering before signing in, too many requests) has a message for the user.
    const body = await response.json().catch(() => ({}))
    if (!response.ok || !body.options) {
      throw new Error(body.message || "Passkeys are not available right now.")
    }
    // Aborted while the options were on their way: another ceremony has the browser now.
    signal.throwIfAborted()
    const credential = body.action === "register"
      ? await navigator.credentials.create({ publicKey: creationOptions(body.options), signal })
      : await navigator.credentials.get({ publicKey: requestOptions(body.options), mediation, signal })
    signal.throwIfAborted()
    form.elements.namedItem("action").value = body.action
    form.elements.namedItem("data").value = JSON.stringify(toJSON(credential))
    form.submit()
  }
  for (const form of document.querySelectorAll("form[data-latch-webauthn]")) {
    const alert = form.querySelector("[data-latch-alert]")
    const show = (message) => { alert.textContent = message; alert.hidden = false }
    form.hidden = false
    if (!PKC || !navigator.credentials) {
      show("This browser does not support passkeys.")
      form.querySelector("button").disabled = true
      continue
    }
    // The pending ceremony's: one at a time. The button's aborts the autofill's first (WebAuthn
    // runs one request per page, and a second one while the first is pending fails or takes
    // its place), even while the autofill is still being set up.
    let pending = new AbortController()
    const autofill = () => {
      if (form.dataset.conditional !== "true" || !PKC.isConditionalMediationAvailable) return
      const mine = pending
      PKC.isConditionalMediationAvailable().then((available) => {
        if (!available || mine.signal.aborted) return
        ceremony(form, { action: "authenticate" }, "conditional", mine.signal).catch(() => {})
      })
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault()
      pending.abort()
      const mine = (pending = new AbortController())
      const email = form.elements.namedItem("email")?.value?.trim()
      const query = form.dataset.action
        ? { action: form.dataset.action }
        : email ? { email } : { action: "authenticate" }
      try {
        await ceremony(form, query, undefined, mine.signal)
      } catch (error) {
        // Another click took over: its ceremony runs, and says what happened.
        if (mine.signal.aborted) return
        show(error?.name === "NotAllowedError" || error?.name === "AbortError"
          ? "No passkey was used. Try again, or sign in another way and add a passkey " +
            "from your account."
          : error?.message || "Signing in with a passkey failed.")
        // The autofill was given up for the button: offer it again.
        pending = new AbortController()
        autofill()
      }
    })
    autofill()
  }
})()`

/** The script's tag, allowed by the page's policy through `nonce`; nothing without one. */
export function webAuthnScriptTag(nonce: string | undefined): SafeHtml | "" {
  return nonce
    ? html`<script nonce="${nonce}">
        ${raw(WEBAUTHN_SCRIPT)}
      </script>`
    : ""
}
