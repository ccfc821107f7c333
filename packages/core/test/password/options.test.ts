/**
 * The Password provider's hashing options: their defaults, and the values refused when the
 * provider is configured (a limit that cannot work, parameters that would take too much memory).
 */
import { describe, expect, it } from "vitest"
import { DEFAULT_SCRYPT } from "../../src/password/hash.js"
import { defaultHashingLimits } from "../../src/password/limiter.js"
import Password, {
  passwordSettings,
  type PasswordHashing,
  type PasswordOptions,
} from "../../src/providers/password.js"

const settingsOf = (options: PasswordOptions = {}) => Password(options)[passwordSettings]

describe("Password({ hashing })", () => {
  it("defaults to the machine's limits and budgets per client and for the app", () => {
    const { hashing, scrypt } = settingsOf()
    expect(scrypt).toEqual(DEFAULT_SCRYPT)
    expect(hashing).toEqual({
      ...defaultHashingLimits(),
      perClient: { max: 20, window: 600 },
      global: { max: 60, window: 60 },
    })
  })

  it("takes limits and budgets of the app's, or none", () => {
    const { hashing } = settingsOf({
      hashing: { concurrency: 1, queue: 0, perClient: false, global: { max: 5, window: 30 } },
    })
    expect(hashing).toEqual({
      concurrency: 1,
      queue: 0,
      perClient: false,
      global: { max: 5, window: 30 },
    })
  })

  it.each<[string, PasswordHashing]>([
    ["hashing.concurrency", { concurrency: 0 }],
    ["hashing.concurrency", { concurrency: 1.5 }],
    ["hashing.queue", { queue: -1 }],
    ["hashing.perClient.max", { perClient: { max: 0, window: 60 } }],
    ["hashing.global.window", { global: { max: 10, window: Number.NaN } }],
  ])("refuses %s in %j at start-up", (path, hashing) => {
    expect(() => Password({ hashing })).toThrow(path)
  })

  it("refuses scrypt parameters over 256 MiB, or that are not whole", () => {
    expect(() => Password({ scrypt: { ln: 20, r: 8, p: 1 } })).toThrow(/256 MiB/)
    expect(() => Password({ scrypt: { ln: 15, r: 8, p: 0 } })).toThrow(/scrypt/)
    // The old default still may be chosen.
    expect(settingsOf({ scrypt: { ln: 17, r: 8, p: 1 } }).scrypt).toEqual({ ln: 17, r: 8, p: 1 })
  })
})
