import { describe, expect, it } from "vitest"

import * as errors from "../../src/errors.js"
import {
  AccessDenied,
  AuthError,
  CredentialsSignin,
  WebAuthnVerificationError,
  MethodNotAllowed,
  SignInError,
  errorDestination,
  isClientSafe,
  type ErrorDestination,
  type ErrorKind,
} from "../../src/errors.js"

type ErrorClass = typeof AuthError

interface Row {
  /** The exported class name. */
  name: string
  /** Its static and instance `type`. */
  type: string
  kind: ErrorKind
  destination: ErrorDestination
}

const toError = (error: string): ErrorDestination => ({ page: "error", error: error as never })
const toSignIn = (error: string): ErrorDestination => ({ page: "signIn", error: error as never })
const CONFIGURATION = toError("Configuration")

/** Every error class, with where it sends the user. */
const table: Row[] = [
  { name: "AuthError", type: "Configuration", kind: "error", destination: CONFIGURATION },
  { name: "SignInError", type: "Configuration", kind: "signIn", destination: toSignIn("Signin") },
  {
    name: "AccessDenied",
    type: "AccessDenied",
    kind: "error",
    destination: toError("AccessDenied"),
  },
  { name: "AdapterError", type: "AdapterError", kind: "error", destination: CONFIGURATION },
  {
    name: "AccountNotLinked",
    type: "AccountNotLinked",
    kind: "signIn",
    destination: toSignIn("AccountNotLinked"),
  },
  {
    name: "CallbackRouteError",
    type: "CallbackRouteError",
    kind: "error",
    destination: CONFIGURATION,
  },
  {
    name: "CredentialsSignin",
    type: "CredentialsSignin",
    kind: "signIn",
    destination: { page: "signIn", error: "CredentialsSignin", code: "credentials" },
  },
  {
    name: "DuplicateConditionalUI",
    type: "DuplicateConditionalUI",
    kind: "error",
    destination: CONFIGURATION,
  },
  {
    name: "EmailSignInError",
    type: "EmailSignInError",
    kind: "signIn",
    destination: toSignIn("EmailSignin"),
  },
  { name: "ErrorPageLoop", type: "ErrorPageLoop", kind: "error", destination: CONFIGURATION },
  { name: "EventError", type: "EventError", kind: "error", destination: CONFIGURATION },
  {
    name: "ExperimentalFeatureNotEnabled",
    type: "ExperimentalFeatureNotEnabled",
    kind: "error",
    destination: CONFIGURATION,
  },
  {
    name: "InvalidCallbackUrl",
    type: "InvalidCallbackUrl",
    kind: "error",
    destination: CONFIGURATION,
  },
  { name: "InvalidCheck", type: "InvalidCheck", kind: "error", destination: CONFIGURATION },
  { name: "InvalidEndpoints", type: "InvalidEndpoints", kind: "error", destination: CONFIGURATION },
  { name: "InvalidProvider", type: "InvalidProvider", kind: "error", destination: CONFIGURATION },
  { name: "InvalidRequest", type: "InvalidRequest", kind: "error", destination: CONFIGURATION },
  { name: "JWTSessionError", type: "JWTSessionError", kind: "error", destination: CONFIGURATION },
  { name: "MethodNotAllowed", type: "MethodNotAllowed", kind: "error", destination: CONFIGURATION },
  { name: "MissingAdapter", type: "MissingAdapter", kind: "error", destination: CONFIGURATION },
  {
    name: "MissingAdapterMethods",
    type: "MissingAdapterMethods",
    kind: "error",
    destination: CONFIGURATION,
  },
  { name: "MissingAuthorize", type: "MissingAuthorize", kind: "error", destination: CONFIGURATION },
  {
    name: "MissingCSRF",
    type: "MissingCSRF",
    kind: "signIn",
    destination: toSignIn("MissingCSRF"),
  },
  { name: "MissingSecret", type: "MissingSecret", kind: "error", destination: CONFIGURATION },
  {
    name: "MissingWebAuthnAutocomplete",
    type: "MissingWebAuthnAutocomplete",
    kind: "error",
    destination: CONFIGURATION,
  },
  {
    name: "OAuthAccountNotLinked",
    type: "OAuthAccountNotLinked",
    kind: "signIn",
    destination: toSignIn("OAuthAccountNotLinked"),
  },
  {
    name: "OAuthCallbackError",
    type: "OAuthCallbackError",
    kind: "signIn",
    destination: toSignIn("OAuthCallbackError"),
  },
  {
    name: "OAuthProfileParseError",
    type: "OAuthProfileParseError",
    kind: "error",
    destination: CONFIGURATION,
  },
  {
    name: "OAuthSignInError",
    type: "OAuthSignInError",
    kind: "signIn",
    destination: toSignIn("OAuthSignin"),
  },
  { name: "PayloadTooLarge", type: "PayloadTooLarge", kind: "error", destination: CONFIGURATION },
  {
    name: "SessionTokenError",
    type: "SessionTokenError",
    kind: "error",
    destination: CONFIGURATION,
  },
  { name: "SignOutError", type: "SignOutError", kind: "error", destination: CONFIGURATION },
  { name: "UnknownAction", type: "UnknownAction", kind: "error", destination: CONFIGURATION },
  {
    name: "UnsupportedStrategy",
    type: "UnsupportedStrategy",
    kind: "error",
    destination: CONFIGURATION,
  },
  { name: "UntrustedHost", type: "UntrustedHost", kind: "error", destination: CONFIGURATION },
  {
    name: "Verification",
    type: "Verification",
    kind: "error",
    destination: toError("Verification"),
  },
  {
    name: "EmailCodeError",
    type: "EmailCodeError",
    kind: "error",
    destination: { page: "verifyRequest", error: "Verification", code: "wrong_code" },
  },
  {
    name: "WebAuthnVerificationError",
    type: "WebAuthnVerificationError",
    kind: "signIn",
    destination: { page: "signIn", error: "WebAuthnVerificationError", code: "verification" },
  },
  {
    name: "PasswordError",
    type: "PasswordError",
    kind: "signIn",
    destination: { page: "signUp", error: "PasswordError", code: "refused" },
  },
  {
    name: "AccountError",
    type: "AccountError",
    kind: "signIn",
    destination: { page: "account", error: "AccountError", code: "not_found" },
  },
  {
    name: "TwoFactorError",
    type: "TwoFactorError",
    kind: "signIn",
    destination: { page: "twoFactor", error: "TwoFactorError", code: "wrong_code" },
  },
  {
    name: "PasskeySignUpError",
    type: "PasskeySignUpError",
    kind: "signIn",
    destination: { page: "passkeySignUp", error: "PasskeySignUpError", code: "wrong_code" },
  },
  {
    name: "ReauthenticationRequired",
    type: "ReauthenticationRequired",
    kind: "signIn",
    destination: {
      page: "reauthenticate",
      error: "ReauthenticationRequired",
      code: "required",
    },
  },
]

/** Every class exported by the errors module that is an `AuthError`. */
const exportedClasses = Object.entries(errors).filter(
  (entry): entry is [string, ErrorClass] =>
    typeof entry[1] === "function" &&
    (entry[1] === AuthError ||
      (entry[1] as { prototype?: unknown }).prototype instanceof AuthError),
)

function classOf(name: string): ErrorClass {
  const ctor = (errors as unknown as Record<string, ErrorClass>)[name]
  if (!ctor) throw new Error(`errors.ts exports no ${name}`)
  return ctor
}

describe("the error table", () => {
  it("has a row for every error class errors.ts exports, and no other", () => {
    expect(exportedClasses.map(([name]) => name).sort()).toEqual(
      table.map((row) => row.name).sort(),
    )
  })

  it.each(table)("$name: type $type, kind $kind", ({ name, type, kind }) => {
    const Ctor = classOf(name)
    expect(Ctor.type).toBe(type)
    expect(Ctor.kind).toBe(kind)
    const error = new Ctor("boom")
    expect(error.type).toBe(type)
    expect(error.kind).toBe(kind)
    expect(error.name).toBe(name)
  })

  it.each(table)(
    "$name → $destination.page page, error=$destination.error",
    ({ name, destination }) => {
      expect(errorDestination(new (classOf(name))())).toEqual(destination)
    },
  )

  it.each(table)("$name is an AuthError and an Error", ({ name }) => {
    const error = new (classOf(name))()
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toBeInstanceOf(Error)
  })

  it.each(table)("$name is a SignInError exactly when its kind is signIn", ({ name, kind }) => {
    expect(new (classOf(name))() instanceof SignInError).toBe(kind === "signIn")
  })

  it("gives every class but the two bases its own type", () => {
    const types = table.filter((row) => row.type !== "Configuration").map((row) => row.type)
    expect(new Set(types).size).toBe(types.length)
    expect(types.length).toBe(table.length - 2)
  })
})

describe("errorDestination", () => {
  it("carries the default code of CredentialsSignin", () => {
    expect(errorDestination(new CredentialsSignin())).toEqual({
      page: "signIn",
      error: "CredentialsSignin",
      code: "credentials",
    })
  })

  it("carries the code of a CredentialsSignin subclass", () => {
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login"
    }
    const error = new InvalidLogin()
    expect(error.name).toBe("InvalidLogin")
    expect(error.type).toBe("CredentialsSignin")
    expect(errorDestination(error)).toEqual({
      page: "signIn",
      error: "CredentialsSignin",
      code: "invalid_login",
    })
  })

  it("carries a code set on an instance", () => {
    const error = new CredentialsSignin()
    error.code = "locked"
    expect(errorDestination(error).code).toBe("locked")
  })

  it("sends no code for other sign-in errors", () => {
    expect(errorDestination(new errors.OAuthCallbackError())).not.toHaveProperty("code")
    expect(errorDestination(new errors.MissingCSRF())).not.toHaveProperty("code")
  })

  it.each([
    ["a plain Error", new Error("boom")],
    ["a TypeError", new TypeError("boom")],
    ["a string", "boom"],
    ["null", null],
    ["undefined", undefined],
    ["an object that looks like an AuthError", { type: "AccessDenied", kind: "error" }],
    ["an object that looks like CredentialsSignin", { type: "CredentialsSignin", kind: "signIn" }],
  ])("sends %s to the error page as Configuration", (_, error) => {
    expect(errorDestination(error)).toEqual({ page: "error", error: "Configuration" })
    expect(isClientSafe(error)).toBe(false)
  })

  it.each(table)(
    "isClientSafe($name) is true unless the page says Configuration",
    ({ name, destination }) => {
      expect(isClientSafe(new (classOf(name))())).toBe(destination.error !== "Configuration")
    },
  )
})

describe("AuthError construction", () => {
  const cause = new Error("underlying")

  it.each(table)("$name can be built in every form", ({ name }) => {
    const Ctor = classOf(name)

    const bare = new Ctor()
    expect(bare.message).toBe("")
    expect(bare.cause).toBeUndefined()

    const withMessage = new Ctor("msg")
    expect(withMessage.message).toBe("msg")
    expect(withMessage.cause).toBeUndefined()

    // Auth.js's shape: the underlying error is `cause.err`.
    const withCause = new Ctor({ cause })
    expect(withCause.message).toBe("")
    expect(withCause.cause).toEqual({ err: cause })

    const both = new Ctor("msg", { cause })
    expect(both.message).toBe("msg")
    expect(both.cause).toEqual({ err: cause })
    expect((both.cause as { err: Error }).err).toBe(cause)
  })

  it.each([
    ["a string", "just text"],
    ["a number", 42],
    ["null", null],
  ])("keeps a cause that is %s as { value }", (_, value) => {
    expect(new AccessDenied("denied", { cause: value }).cause).toEqual({ value })
  })

  it("keeps a plain-object cause as it is", () => {
    const details = { code: 1 }
    expect(new AccessDenied("denied", { cause: details }).cause).toBe(details)
  })

  it("has a stack that starts with its name and message", () => {
    const error = new AccessDenied("nope")
    expect(error.stack).toMatch(/^AccessDenied: nope/)
    expect(String(error)).toBe("AccessDenied: nope")
  })

  it("names a user subclass after itself, keeping the parent's type and kind", () => {
    class MyDenied extends AccessDenied {}
    const error = new MyDenied("mine")
    expect(error.name).toBe("MyDenied")
    expect(error.type).toBe("AccessDenied")
    expect(error.kind).toBe("error")
    expect(error).toBeInstanceOf(AccessDenied)
    expect(errorDestination(error)).toEqual({ page: "error", error: "AccessDenied" })
  })

  it("lets a subclass choose its own static type", () => {
    class Custom extends AuthError {
      static override type = "Verification" as const
    }
    expect(new Custom().type).toBe("Verification")
    expect(errorDestination(new Custom())).toEqual({ page: "error", error: "Verification" })
  })

  it("starts MethodNotAllowed with an empty Allow list, separate per instance", () => {
    const a = new MethodNotAllowed()
    const b = new MethodNotAllowed()
    expect(a.allow).toEqual([])
    a.allow.push("GET")
    expect(b.allow).toEqual([])
  })

  it("carries the code of a WebAuthnVerificationError, in either constructor form", () => {
    expect(errorDestination(new WebAuthnVerificationError("m", { code: "replay" }))).toEqual({
      page: "signIn",
      error: "WebAuthnVerificationError",
      code: "replay",
    })
    expect(new WebAuthnVerificationError({ code: "counter" }).code).toBe("counter")
  })

  it("gives each instance of CredentialsSignin its own code", () => {
    const a = new CredentialsSignin()
    a.code = "changed"
    expect(new CredentialsSignin().code).toBe("credentials")
  })
})
