/**
 * The values among `@auth/core`'s names behave as Auth.js's do: `isDate`, `AuthError` (its
 * `cause` shape and error types of an app's own), `decode<T>()` and `getToken`'s `logger`.
 * (`exports.ts` beside this file checks that every name exists, with its type.)
 */
import { describe, expect, it, vi } from "vitest"

import { isDate } from "../../src/adapters.js"
import { AccessDenied, AuthError, CredentialsSignin, errorDestination } from "../../src/errors.js"
import { decode, encode, getToken } from "../../src/jwt.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"

describe("isDate", () => {
  // Each answer is what @auth/core 0.41.3's isDate gives for the same value.
  it.each([
    ["2024-01-02T03:04:05.678Z", true],
    ["2024-01-02T03:04:05Z", true],
    ["2024-01-02T03:04:05+02:00", true],
    ["2024-01-02T03:04Z", true],
    ["2024-01-02", false],
    ["2024-13-02T03:04:05Z", false],
    ["2024-01-02 03:04:05", false],
    ["2024-01-02T03:04:05.678", false],
    ["hello", false],
    [12, false],
    [null, false],
    [new Date(0), false],
  ])("isDate(%j) is %s", (value, expected) => {
    expect(isDate(value)).toBe(expected)
  })

  it("revives what JSON.stringify wrote", () => {
    const stored = JSON.stringify({ expires: new Date(1_700_000_000_000), name: "x" })
    const revived = JSON.parse(stored, (_key, value) => (isDate(value) ? new Date(value) : value))
    expect(revived.expires).toEqual(new Date(1_700_000_000_000))
    expect(revived.name).toBe("x")
  })
})

describe("AuthError.cause", () => {
  it("wraps an Error as { err }, merged with that error's own cause fields", () => {
    const inner = new Error("connection refused", { cause: { host: "db", attempt: 3 } })
    const error = new AccessDenied("denied", { cause: inner })
    expect(error.message).toBe("denied")
    expect(error.cause).toEqual({ host: "db", attempt: 3, err: inner })
    expect(error.cause?.err).toBe(inner)
  })

  it("keeps a plain object as it is, and puts any other value under `value`", () => {
    const details = { provider: "github", status: 500 }
    expect(new AccessDenied("denied", { cause: details }).cause).toBe(details)
    expect(new AccessDenied("denied", { cause: "text" }).cause).toEqual({ value: "text" })
    expect(new AccessDenied("denied", { cause: null }).cause).toEqual({ value: null })
    expect(new AccessDenied("denied").cause).toBeUndefined()
    expect(new AccessDenied("denied")).not.toHaveProperty("cause")
  })

  it("takes an Error as the only argument, as its cause", () => {
    const inner = new TypeError("bad")
    const error = new AccessDenied(inner)
    expect(error.message).toBe("")
    expect(error.cause).toEqual({ err: inner })
  })

  it("takes { cause } as the only argument", () => {
    const inner = new Error("x")
    expect(new AccessDenied({ cause: inner }).cause).toEqual({ err: inner })
  })

  it("keeps the cause out of the error's own enumerable fields", () => {
    const error = new AccessDenied("denied", { cause: new Error("x") })
    expect(Object.keys(error)).not.toContain("cause")
  })
})

describe("error types of an app's own", () => {
  class RateLimited extends AuthError {
    static override type = "RateLimited"
  }
  class InvalidLogin extends CredentialsSignin {
    override code = "invalid_login"
  }

  it("have their own type, and are the server's fault unless a sign-in error", () => {
    const error = new RateLimited("slow down")
    expect(error.type).toBe("RateLimited")
    expect(error.name).toBe("RateLimited")
    expect(errorDestination(error)).toEqual({ page: "error", error: "Configuration" })
    expect(errorDestination(new InvalidLogin())).toEqual({
      page: "signIn",
      error: "CredentialsSignin",
      code: "invalid_login",
    })
  })
})

describe("jwt", () => {
  it("decode<T>() returns the claims typed as asked", async () => {
    const token = await encode({ token: { scope: "read" }, secret: SECRET, salt: "s" })
    const claims = await decode<{ scope: string }>({ token, secret: SECRET, salt: "s" })
    expect(claims?.scope).toBe("read")
  })

  it("getToken reports to its logger where it looked and why a token was not read", async () => {
    const token = await encode({
      token: { sub: "u1" },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    const logger = { debug: vi.fn(), error: vi.fn(), warn: vi.fn() }
    const found = await getToken({
      req: new Request("http://localhost", {
        headers: { cookie: `authjs.session-token=${token}` },
      }),
      secret: SECRET,
      logger,
    })
    expect(found?.sub).toBe("u1")
    expect(logger.debug).toHaveBeenCalledWith(expect.stringContaining("authjs.session-token"))

    logger.debug.mockClear()
    const garbled = await getToken({
      req: new Request("http://localhost", { headers: { cookie: "authjs.session-token=garbled" } }),
      secret: SECRET,
      logger,
    })
    expect(garbled).toBeNull()
    expect(logger.debug).toHaveBeenCalledWith(expect.stringMatching(/could not be decrypted/))

    logger.debug.mockClear()
    await getToken({ req: new Request("http://localhost"), secret: SECRET, logger })
    expect(logger.debug).toHaveBeenCalledWith(expect.stringMatching(/no token/))
    expect(logger.error).not.toHaveBeenCalled()
  })

  it("getToken keeps working when its logger throws", async () => {
    const logger = {
      debug: () => {
        throw new Error("broken logger")
      },
      error: () => {},
      warn: () => {},
    }
    await expect(
      getToken({ req: new Request("http://localhost"), secret: SECRET, logger }),
    ).resolves.toBeNull()
  })

  it("getToken with raw: true returns the encrypted token", async () => {
    const token = await encode({
      token: { sub: "u1" },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    const req = new Request("http://localhost", {
      headers: { cookie: `authjs.session-token=${token}` },
    })
    const raw: string = await getToken({ req, secret: SECRET, raw: true })
    expect(raw).toBe(token)
  })
})
