import { describe, expect, it, vi } from "vitest"
import { checkNewPassword, passwordLength, policyBounds } from "../../src/password/policy.js"

const alice = { email: "alice@example.com", name: "Alice Liddell" }

describe("checkNewPassword (NIST SP 800-63B: length, not composition)", () => {
  it("takes 8 characters and more, of any kind, with no composition rule", async () => {
    for (const password of [
      "abcdefgh",
      "correct horse battery staple",
      "        x",
      "пароль-пароль",
      "🦊🦊🦊🦊🦊🦊🦊🦊",
      "a".repeat(256),
    ])
      expect(await checkNewPassword(password, undefined, alice), password).toBeUndefined()
  })

  it("refuses fewer than 8 characters as the user sees them", async () => {
    expect(await checkNewPassword("abcdefg", undefined, alice)).toBe("password_too_short")
    // Seven family emoji are 7 characters, not 77 code units.
    const family = "👩‍👩‍👧".repeat(7)
    expect(passwordLength(family)).toBe(7)
    expect(await checkNewPassword(family, undefined, alice)).toBe("password_too_short")
    expect(await checkNewPassword("", undefined, alice)).toBe("password_too_short")
  })

  it("refuses more than the maximum, and a huge input before any work", async () => {
    expect(await checkNewPassword("a".repeat(257), undefined, alice)).toBe("password_too_long")
    expect(await checkNewPassword("a".repeat(5_000_000), undefined, alice)).toBe(
      "password_too_long",
    )
    expect(await checkNewPassword("a".repeat(300), { maxLength: 512 }, alice)).toBeUndefined()
  })

  it("refuses the account's address, its local part, or the user's name", async () => {
    for (const password of ["alice@example.com", "ALICE@EXAMPLE.COM", "alice Liddell"])
      expect(await checkNewPassword(password, { minLength: 5 }, alice), password).toBe(
        "password_like_identifier",
      )
    expect(await checkNewPassword("alice", { minLength: 5 }, alice)).toBe(
      "password_like_identifier",
    )
    expect(await checkNewPassword("alice in wonderland", undefined, alice)).toBeUndefined()
  })

  it("asks the breached-password hook, and lets a password through when the hook fails", async () => {
    const isBreached = vi.fn(async (password: string) => password === "password123")
    expect(await checkNewPassword("password123", { isBreached }, alice)).toBe("password_breached")
    expect(await checkNewPassword("unlikely-phrase", { isBreached }, alice)).toBeUndefined()
    const onHookError = vi.fn()
    const failing = async () => {
      throw new Error("service down")
    }
    expect(
      await checkNewPassword("unlikely-phrase", { isBreached: failing }, alice, onHookError),
    ).toBeUndefined()
    expect(onHookError).toHaveBeenCalledOnce()
    // The hook only sees passwords that passed the length checks.
    isBreached.mockClear()
    await checkNewPassword("short", { isBreached }, alice)
    expect(isBreached).not.toHaveBeenCalled()
  })
})

it("refuses control characters, which no one types (and NUL would weaken the hash)", async () => {
  for (const password of ["wonderland\u0000", "wonder\tland", "wonderland\n", "wonder\u007fland"])
    expect(await checkNewPassword(password, undefined, alice), JSON.stringify(password)).toBe(
      "password_control_characters",
    )
})

describe("policyBounds", () => {
  it("refuses a maximum under 64 (NIST) or a minimum over the maximum", () => {
    expect(() => policyBounds({ maxLength: 32 })).toThrow(/64/)
    expect(() => policyBounds({ minLength: 0 })).toThrow(/minLength/)
    expect(() => policyBounds({ minLength: 100, maxLength: 64 })).toThrow(/exceeds/)
    expect(policyBounds()).toEqual({ minLength: 8, maxLength: 256 })
  })
})
