/**
 * The passkey ceremonies of `<SignIn provider="passkey">`, loaded by the component only for a
 * passkey form (a page with other forms downloads none of it). It uses the browser's WebAuthn
 * API directly, not `@simplewebauthn/browser`: that is an optional peer, and a component every
 * app may import cannot depend on it.
 *
 * At most one ceremony runs at a time. The autofill (conditional mediation) is requested when
 * the browser offers it; the button aborts it before its own (modal) request, so the two never
 * race, and starts it again when the modal one fails. The credential's JSON goes into the
 * form's `action` and `data` fields and the form is submitted: the `signIn` form action verifies
 * it like any sign-in.
 */

import { actionsBase } from "../client-base.js"

type Json = Record<string, any>

const decode = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))
const encode = (buffer: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")

/** The options' JSON as the browser takes them (browsers before 2024 cannot parse it). */
export function requestOptions(options: Json): PublicKeyCredentialRequestOptions {
  const PKC = PublicKeyCredential as Json
  if (PKC.parseRequestOptionsFromJSON) return PKC.parseRequestOptionsFromJSON(options)
  return {
    ...options,
    challenge: decode(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map((c: Json) => ({
      ...c,
      id: decode(c.id),
    })),
  } as PublicKeyCredentialRequestOptions
}

/** Registration options' JSON as the browser takes them. */
export function creationOptions(options: Json): PublicKeyCredentialCreationOptions {
  const PKC = PublicKeyCredential as Json
  if (PKC.parseCreationOptionsFromJSON) return PKC.parseCreationOptionsFromJSON(options)
  return {
    ...options,
    challenge: decode(options.challenge),
    user: { ...options.user, id: decode(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map((c: Json) => ({
      ...c,
      id: decode(c.id),
    })),
  } as unknown as PublicKeyCredentialCreationOptions
}

/** The assertion (or a registration's attestation) as JSON, as the server reads it. */
export function toJSON(credential: Json): Json {
  if (typeof credential.toJSON === "function") return credential.toJSON()
  const r = credential.response
  const attested = r.attestationObject !== undefined
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    response: attested
      ? {
          clientDataJSON: encode(r.clientDataJSON),
          attestationObject: encode(r.attestationObject),
          transports: r.getTransports?.() ?? [],
        }
      : {
          clientDataJSON: encode(r.clientDataJSON),
          authenticatorData: encode(r.authenticatorData),
          signature: encode(r.signature),
          ...(r.userHandle ? { userHandle: encode(r.userHandle) } : {}),
        },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  }
}

/** Sets (or adds) the hidden field `name` of the form. */
function setField(form: HTMLFormElement, name: string, value: string) {
  let input = form.elements.namedItem(name) as HTMLInputElement | null
  if (!input) {
    input = Object.assign(document.createElement("input"), { type: "hidden", name })
    form.append(input)
  }
  input.value = value
}

/**
 * The field whose autofill offers passkeys: the page's own (an input whose `autocomplete` ends
 * with the `webauthn` token, as HTML requires: `"username webauthn"`), else a "Username" field
 * added before the form's button — only now, where the browser offers passkeys in autofill.
 */
function autofillField(form: HTMLFormElement) {
  if (document.querySelector('input[autocomplete$="webauthn" i]')) return
  const label = Object.assign(document.createElement("label"), {
    className: "latch-passkey",
    textContent: "Username ",
  })
  label.append(
    Object.assign(document.createElement("input"), {
      name: "username",
      autocomplete: "username webauthn",
    }),
  )
  form.querySelector("button")?.before(label)
}

/**
 * Runs the passkeys of `form` until it leaves the page: then the pending request is aborted,
 * and nothing is submitted after. The form's attributes say the rest: `data-base-path` (the
 * server's `basePath`, default `/auth`), and `autocomplete="off"` (no autofill: the button only).
 */
export function passkeys(form: HTMLFormElement, provider: string) {
  const actions = actionsBase(form.dataset.basePath)
  const offer = form.autocomplete !== "off"
  /** The pending ceremony's; `undefined` when none is. */
  let current: AbortController | undefined
  let submitting = false
  let stopped = false
  if (!window.PublicKeyCredential || !navigator.credentials) return

  /** Aborts the pending ceremony, then runs one: resolves once the form is submitted. */
  async function ceremony(mediation?: "conditional") {
    current?.abort()
    const controller = (current = new AbortController())
    try {
      await run(controller.signal, mediation)
    } finally {
      if (current === controller) current = undefined
    }
  }

  async function run(signal: AbortSignal, mediation?: "conditional") {
    const url = `${actions}/webauthn-options/${encodeURIComponent(provider)}?action=authenticate`
    const response = await fetch(url, { signal })
    const body = (await response.json().catch(() => ({}))) as Json
    if (!response.ok || !body.options) {
      throw Object.assign(new Error(body.message ?? "No passkey options"), {
        name: body.error ?? "WebAuthnOptions",
      })
    }
    // Aborted while the options were on their way: another ceremony has the browser now.
    signal.throwIfAborted()
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(body.options),
      mediation: mediation as CredentialMediationRequirement | undefined,
      signal,
    })
    signal.throwIfAborted()
    setField(form, "action", body.action ?? "authenticate")
    setField(form, "data", JSON.stringify(toJSON(credential as unknown as Json)))
    submitting = true
    form.requestSubmit()
    submitting = false
  }

  /** The autofill, when the browser has it; a failure leaves the button. */
  const autofill = async () => {
    if (!offer || !(await PublicKeyCredential.isConditionalMediationAvailable?.())) return
    // Meanwhile the user clicked the button (its ceremony runs), or the form went away.
    if (stopped || current) return
    autofillField(form)
    await ceremony("conditional")
  }
  const quietly = (pending: Promise<unknown>) => pending.catch(() => {})

  function onSubmit(event: SubmitEvent) {
    if (submitting) return
    event.preventDefault()
    event.stopImmediatePropagation()
    ceremony().catch((error: Error) => {
      // Aborted: by unmount, or by another click (whose ceremony now runs). Otherwise the user
      // cancelled, or the server refused the options (too many requests): tell the page, and
      // offer the autofill again.
      if (error?.name === "AbortError" || stopped) return
      form.dispatchEvent(new CustomEvent("passkeyerror", { detail: { error: error?.name } }))
      quietly(autofill())
    })
  }
  // Capture: before `use:enhance`'s listener, which would post the form without a credential.
  form.addEventListener("submit", onSubmit, true)
  // The form left the page (the component unmounted, the user navigated away): stop.
  const watch = new MutationObserver(() => {
    if (form.isConnected) return
    stopped = true
    watch.disconnect()
    form.removeEventListener("submit", onSubmit, true)
    current?.abort()
  })
  watch.observe(document, { childList: true, subtree: true })
  quietly(autofill())
}
