import type { Component } from "svelte"
import { render } from "svelte/server"
import { afterEach, describe, expect, it } from "vitest"
import { SignIn, SignOut, TwoFactorForm } from "../src/lib/components/index.js"
import ButtonSnippetParent from "./fixtures/ButtonSnippetParent.svelte"
import EmailSlotParent from "./fixtures/EmailSlotParent.svelte"
import SignOutSlotParent from "./fixtures/SignOutSlotParent.svelte"
import SignOutSnippetParent from "./fixtures/SignOutSnippetParent.svelte"
import SlotParent from "./fixtures/SlotParent.svelte"
import SnippetParent from "./fixtures/SnippetParent.svelte"
import TwoFactorSnippetParent from "./fixtures/TwoFactorSnippetParent.svelte"
import { setBase } from "./stubs/app-paths.js"

type Attributes = Record<string, string>

const ENTITIES: Record<string, string> = {
  "&quot;": '"',
  "&#34;": '"',
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
}
const decode = (value: string) =>
  value.replace(/&(?:quot|#34|#39|lt|gt|amp);/g, (e) => ENTITIES[e]!)

/** The server-rendered HTML of a component, without Svelte's hydration comments. */
function html(component: Component<any>, props: Record<string, unknown> = {}): string {
  return render(component, { props }).body.replace(/<!--[\s\S]*?-->/g, "")
}

/** Every `<tag …>` with its attributes, values decoded (attribute-aware: `>` may occur in values). */
function elements(markup: string, tag: string): Attributes[] {
  const pattern = new RegExp(`<${tag}((?:\\s+[\\w:.-]+(?:="[^"]*")?)*)\\s*/?>`, "g")
  return [...markup.matchAll(pattern)].map(([, attributes = ""]) => {
    const result: Attributes = {}
    for (const [, name, value] of attributes.matchAll(/([\w:.-]+)(?:="([^"]*)")?/g))
      result[name!] = decode(value ?? "")
    return result
  })
}

const form = (markup: string) => {
  const forms = elements(markup, "form")
  expect(forms).toHaveLength(1)
  return forms[0]!
}
const hidden = (markup: string) =>
  elements(markup, "input")
    .filter((input) => input.type === "hidden")
    .map(({ name, value }) => [name, value])
const buttonText = (markup: string) => /<button[^>]*>([\s\S]*?)<\/button>/.exec(markup)?.[1]?.trim()

afterEach(() => setBase(""))

describe("<SignIn />", () => {
  it("renders a POST form to /signin with the provider as a hidden field", () => {
    const markup = html(SignIn, { provider: "github" })
    expect(form(markup)).toMatchObject({ method: "POST", action: "/signin" })
    expect(hidden(markup)).toEqual([["providerId", "github"]])
    expect(buttonText(markup)).toBe("Sign in with github")
    expect(elements(markup, "button")[0]).toMatchObject({ type: "submit" })
  })

  it("renders an empty providerId and a plain label without a provider", () => {
    const markup = html(SignIn)
    expect(hidden(markup)).toEqual([["providerId", ""]])
    expect(buttonText(markup)).toBe("Sign in")
  })

  it("posts to ${base}/${signInPage}", () => {
    setBase("/app")
    expect(form(html(SignIn, { provider: "github" })).action).toBe("/app/signin")
    expect(form(html(SignIn, { provider: "github", signInPage: "login" })).action).toBe(
      "/app/login",
    )
    expect(form(html(SignIn, { provider: "github", signInPage: "/login" })).action).toBe(
      "/app/login",
    )
    setBase("")
    expect(form(html(SignIn, { signInPage: "login" })).action).toBe("/login")
  })

  it("renders options as hidden inputs and authorizationParams as authorizationParams-*", () => {
    const markup = html(SignIn, {
      provider: "github",
      options: { redirectTo: "/dashboard", remember: true, n: 3 },
      authorizationParams: { prompt: "login", login_hint: "a@b.c" },
    })
    expect(hidden(markup)).toEqual([
      ["providerId", "github"],
      ["redirectTo", "/dashboard"],
      ["remember", "true"],
      ["n", "3"],
      ["authorizationParams-prompt", "login"],
      ["authorizationParams-login_hint", "a@b.c"],
    ])
  })

  it.each([
    [
      "a URLSearchParams",
      new URLSearchParams([
        ["prompt", "login"],
        ["login_hint", "a@b.c"],
      ]),
    ],
    ["a query string", "prompt=login&login_hint=a%40b.c"],
    [
      "an array of pairs",
      [
        ["prompt", "login"],
        ["login_hint", "a@b.c"],
      ],
    ],
    ["a record", { prompt: "login", login_hint: "a@b.c" }],
  ])("takes authorizationParams as %s", (_, authorizationParams) => {
    expect(hidden(html(SignIn, { provider: "github", authorizationParams }))).toEqual([
      ["providerId", "github"],
      ["authorizationParams-prompt", "login"],
      ["authorizationParams-login_hint", "a@b.c"],
    ])
  })

  it("takes options as a FormData, leaving out files", () => {
    const options = new FormData()
    options.set("redirectTo", "/dashboard")
    options.append("tag", "a")
    options.append("tag", "b")
    options.set("avatar", new Blob(["x"]), "avatar.png")
    expect(hidden(html(SignIn, { provider: "github", options }))).toEqual([
      ["providerId", "github"],
      ["redirectTo", "/dashboard"],
      ["tag", "a"],
      ["tag", "b"],
    ])
  })

  it("leaves out options that are undefined or null rather than sending the words", () => {
    const options = { redirectTo: "/d", remember: undefined, hint: null, redirect: false }
    expect(hidden(html(SignIn, { provider: "github", options }))).toEqual([
      ["providerId", "github"],
      ["redirectTo", "/d"],
      ["redirect", "false"],
    ])
  })

  it("sets className on the form and passes other attributes through", () => {
    const markup = html(SignIn, {
      provider: "github",
      className: "signin primary",
      id: "login-form",
      "aria-label": "Sign in form",
      "data-x": "42",
    })
    expect(form(markup)).toMatchObject({
      class: "signin primary",
      id: "login-form",
      "aria-label": "Sign in form",
      "data-x": "42",
      method: "POST",
      action: "/signin",
    })
    expect(form(markup)).not.toHaveProperty("classname")
    expect(form(markup)).not.toHaveProperty("className")
  })

  it.each(["nodemailer", "email"])("gives the email provider %s a labelled email input", (id) => {
    const markup = html(SignIn, { provider: id })
    const inputs = elements(markup, "input").filter((input) => input.name === "email")
    expect(inputs).toHaveLength(1)
    expect(inputs[0]).toMatchObject({ type: "email" })
    expect(inputs[0]).toHaveProperty("required")
    // The input sits inside a <label> with text: it is labelled.
    expect(markup).toMatch(/<label[^>]*>\s*Email\s*<input[^>]*name="email"[^>]*\/?>\s*<\/label>/)
  })

  it("renders no email field for OAuth or credentials providers", () => {
    for (const provider of ["github", "credentials"])
      expect(elements(html(SignIn, { provider }), "input").map((i) => i.name)).toEqual([
        "providerId",
      ])
  })

  it("replaces the email field with the email slot", () => {
    const markup = html(EmailSlotParent)
    const emails = elements(markup, "input").filter((input) => input.name === "email")
    expect(emails).toHaveLength(1)
    expect(emails[0]).toMatchObject({ class: "custom-email" })
    expect(markup).not.toContain("latch-email")
  })

  it("escapes hostile option values, names and attributes", () => {
    const hostile = '"><script>alert(1)</script>'
    const markup = html(SignIn, {
      provider: hostile,
      options: { redirectTo: hostile, [hostile]: "x" },
      authorizationParams: { prompt: hostile },
      className: hostile,
      "data-x": hostile,
    })
    expect(markup).not.toContain("<script")
    expect(markup).not.toContain(hostile)
    expect(hidden(markup)).toEqual([
      ["providerId", hostile],
      ["redirectTo", hostile],
      [hostile, "x"],
      ["authorizationParams-prompt", hostile],
    ])
    expect(form(markup)).toMatchObject({ class: hostile, "data-x": hostile })
  })

  it("renders the credentials and submitButton slots", () => {
    const markup = html(SlotParent)
    expect(buttonText(markup)).toContain("Slot button")
    expect(buttonText(markup)).not.toContain("Sign in")
    expect(elements(markup, "input").map((input) => input.name)).toEqual(["providerId", "otp"])
  })

  it("renders the credentials and submitButton snippets", () => {
    const markup = html(SnippetParent)
    expect(buttonText(markup)).toBe("<span>Snippet button</span>")
    expect(elements(markup, "input").find((input) => input.name === "password")).toMatchObject({
      type: "password",
    })
    // Snippets are not spread onto the form as attributes.
    for (const name of Object.keys(form(markup)))
      expect(["action", "class", "method"]).toContain(name)
  })

  it("renders the submitButton snippet for any provider, the credentials one only for credentials", () => {
    const github = html(ButtonSnippetParent, { provider: "github" })
    expect(buttonText(github)).toBe("<strong>Continue with github</strong>")
    expect(elements(github, "input").map((input) => input.name)).toEqual([
      "providerId",
      "redirectTo",
    ])
    const credentials = html(ButtonSnippetParent, { provider: "credentials" })
    expect(elements(credentials, "input").map((input) => input.name)).toContain("otp")
    // The Password provider's form takes the same fields.
    const password = html(ButtonSnippetParent, { provider: "password" })
    expect(elements(password, "input").map((input) => input.name)).toContain("otp")
  })

  it.each(["passkey", "webauthn"])(
    "renders a passkey form (%s) as the button alone: the autofill field is added in the browser, where it has passkey autofill",
    (provider) => {
      const markup = html(SignIn, { provider, options: { redirectTo: "/profile" } })
      expect(form(markup)).toMatchObject({ method: "POST", action: "/signin" })
      expect(hidden(markup)).toEqual([
        ["providerId", provider],
        ["redirectTo", "/profile"],
      ])
      expect(elements(markup, "input").filter((input) => input.type !== "hidden")).toEqual([])
      expect(markup).not.toContain("autocomplete")
      expect(buttonText(markup)).toBe(`Sign in with ${provider}`)
    },
  )

  it("passes a passkey form's data-base-path and autocomplete to the form, where its script reads them", () => {
    const markup = html(SignIn, {
      provider: "passkey",
      "data-base-path": "/api/auth",
      autocomplete: "off",
    })
    expect(form(markup)).toMatchObject({ "data-base-path": "/api/auth", autocomplete: "off" })
  })

  it("emits no static link to the auth pages (prerender-safe)", () => {
    for (const markup of [
      html(SignIn),
      html(SignIn, { provider: "github" }),
      html(SignIn, { provider: "nodemailer" }),
      html(SlotParent),
      html(SnippetParent),
    ]) {
      expect(markup).not.toMatch(/<a\b/)
      expect(markup).not.toContain("/auth/")
    }
  })
})

describe("<SignOut />", () => {
  it("renders a POST form to /signout with a default button", () => {
    const markup = html(SignOut)
    expect(form(markup)).toMatchObject({ method: "POST", action: "/signout" })
    expect(hidden(markup)).toEqual([])
    expect(buttonText(markup)).toBe("Sign out")
  })

  it("posts to ${base}/${signOutPage} and renders options, class and attributes", () => {
    setBase("/app")
    const markup = html(SignOut, {
      signOutPage: "logout",
      options: { redirectTo: "/bye" },
      className: "out",
      id: "signout",
      "aria-label": "Sign out form",
      "data-x": "1",
    })
    expect(form(markup)).toMatchObject({
      method: "POST",
      action: "/app/logout",
      class: "out",
      id: "signout",
      "aria-label": "Sign out form",
      "data-x": "1",
    })
    expect(hidden(markup)).toEqual([["redirectTo", "/bye"]])
  })

  it("takes options as a FormData", () => {
    const options = new FormData()
    options.set("redirectTo", "/bye")
    expect(hidden(html(SignOut, { options }))).toEqual([["redirectTo", "/bye"]])
  })

  it("escapes hostile option values", () => {
    const hostile = '"><script>alert(1)</script>'
    const markup = html(SignOut, { options: { redirectTo: hostile } })
    expect(markup).not.toContain("<script")
    expect(hidden(markup)).toEqual([["redirectTo", hostile]])
  })

  it("renders the submitButton slot and snippet", () => {
    const slot = html(SignOutSlotParent)
    expect(buttonText(slot)).toContain("Log out (slot)")
    expect(hidden(slot)).toEqual([["redirectTo", "/bye"]])
    expect(buttonText(html(SignOutSnippetParent))).toBe("<em>Log out (snippet)</em>")
  })

  it("emits no static link", () => {
    expect(html(SignOut)).not.toMatch(/<a\b/)
  })
})

describe("<TwoFactorForm />", () => {
  const inputs = (markup: string) => elements(markup, "input").filter((i) => i.type !== "hidden")
  const named = (markup: string, name: string) => inputs(markup).filter((i) => i.name === name)

  it("renders a POST form to /two-factor with a code field for authenticator apps", () => {
    const markup = html(TwoFactorForm)
    expect(form(markup)).toMatchObject({ method: "POST", action: "/two-factor" })
    expect(hidden(markup)).toEqual([])
    const [code, ...others] = named(markup, "code")
    expect(others).toEqual([])
    expect(code).toMatchObject({
      type: "text",
      inputmode: "numeric",
      autocomplete: "one-time-code",
      pattern: "[0-9 ]{6,7}",
      maxlength: "7",
    })
    // Labelled: the input sits inside a <label> with text.
    expect(markup).toMatch(
      /<label[^>]*>\s*Code from your authenticator app\s*<input[^>]*name="code"[^>]*\/?>\s*<\/label>/,
    )
    expect(buttonText(markup)).toBe("Verify")
    expect(elements(markup, "button")[0]).toMatchObject({ type: "submit" })
  })

  it("offers a recovery code in a <details>, which opens without JavaScript", () => {
    const markup = html(TwoFactorForm)
    expect(markup).toMatch(
      /<details[^>]*>\s*<summary>Use a recovery code<\/summary>[\s\S]*name="recoveryCode"[\s\S]*<\/details>/,
    )
    expect(named(markup, "recoveryCode")[0]).toMatchObject({
      type: "text",
      autocomplete: "off",
      autocapitalize: "none",
      spellcheck: "false",
    })
    // One of the two is posted: neither is required.
    for (const input of inputs(markup)) expect(input).not.toHaveProperty("required")
  })

  it("asks for a recovery code alone in the recovery variant", () => {
    const markup = html(TwoFactorForm, { recovery: true })
    expect(inputs(markup).map((input) => input.name)).toEqual(["recoveryCode"])
    expect(named(markup, "recoveryCode")[0]).toHaveProperty("required")
    expect(markup).not.toContain("<details")
  })

  it("without a recovery code on offer, requires the code; asks the current one when replacing", () => {
    const plain = html(TwoFactorForm, { offerRecovery: false })
    expect(inputs(plain).map((input) => input.name)).toEqual(["code"])
    expect(named(plain, "code")[0]).toHaveProperty("required")
    const replacing = html(TwoFactorForm, {
      offerRecovery: false,
      currentCode: true,
      options: { setup: "sealed-setup" },
      label: "Code from your new app",
    })
    expect(inputs(replacing).map((input) => input.name)).toEqual(["currentCode", "code"])
    expect(named(replacing, "currentCode")[0]).toMatchObject({
      inputmode: "numeric",
      autocomplete: "one-time-code",
      required: "",
    })
    expect(hidden(replacing)).toEqual([["setup", "sealed-setup"]])
    expect(replacing).toContain("Code from your new app")
  })

  it("posts to ${base}/${twoFactorPage}, to a named action when given", () => {
    setBase("/app")
    expect(form(html(TwoFactorForm)).action).toBe("/app/two-factor")
    expect(
      form(html(TwoFactorForm, { twoFactorPage: "/settings/security", formAction: "disable" }))
        .action,
    ).toBe("/app/settings/security?/disable")
    setBase("")
    expect(form(html(TwoFactorForm, { formAction: "verify" })).action).toBe("/two-factor?/verify")
  })

  it("renders options as hidden inputs, the class, and other attributes", () => {
    const markup = html(TwoFactorForm, {
      options: { redirectTo: "/settings", skip: undefined },
      className: "code-form",
      id: "two-factor",
      "aria-label": "Two-factor code",
    })
    expect(hidden(markup)).toEqual([["redirectTo", "/settings"]])
    expect(form(markup)).toMatchObject({
      class: "code-form",
      id: "two-factor",
      "aria-label": "Two-factor code",
      method: "POST",
      action: "/two-factor",
    })
  })

  it("escapes hostile values", () => {
    const hostile = '"><script>alert(1)</script>'
    const markup = html(TwoFactorForm, {
      options: { setup: hostile },
      label: hostile,
      formAction: hostile,
      className: hostile,
    })
    expect(markup).not.toContain("<script")
    expect(hidden(markup)).toEqual([["setup", hostile]])
    expect(form(markup).class).toBe(hostile)
  })

  it("renders the submitButton snippet, and emits no static link", () => {
    const markup = html(TwoFactorSnippetParent)
    expect(buttonText(markup)).toBe("<em>Turn off</em>")
    expect(form(markup).action).toBe("/two-factor?/disable")
    for (const page of [markup, html(TwoFactorForm), html(TwoFactorForm, { recovery: true })]) {
      expect(page).not.toMatch(/<a\b/)
      expect(page).not.toContain("/auth/")
    }
  })
})
