/**
 * The `use:` action of `<SignIn>` that gives a passkey form (`provider` `"passkey"` or
 * `"webauthn"`) its ceremonies. They are in `passkey.ts`, loaded for passkey forms only: what
 * every page with a `<SignIn>` downloads stays this small (it stops by itself when the form
 * leaves the page, so the action needs no `destroy`).
 */
export const passkeyForm = (form: HTMLFormElement, provider: string) => {
  if (/^(passkey|webauthn)$/.test(provider))
    import("./passkey.js").then(({ passkeys }) => passkeys(form, provider))
}
