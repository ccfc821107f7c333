/**
 * The Password provider's hashing options: their defaults, and the values refused when the
 * provider is configured (a limit that cannot work, parameters that would take too much memory).
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../src/config/resolve.js"
import { DEFAULT_SCRYPT } from "../../src/password/hash.js"
import { defaultHashingLimits } from "../../src/password/limiter.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { SECRET } from "../helpers/request.js"
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

  // The lowest accepted: ln 10, r 1, p 1 (128 KiB), for tests and tight CPU budgets; anything
  // below every configuration OWASP lists is named in a warning, once per configuration.
  it.each([
    [{ ln: 10, r: 1, p: 1 }, true],
    [{ ln: 12, r: 8, p: 16 }, true], // 4 MiB: less memory than OWASP's lowest, 8 MiB
    [{ ln: 13, r: 8, p: 9 }, true], // 8 MiB, but N·r·p under 655,360
    [{ ln: 13, r: 8, p: 10 }, false], // OWASP's lowest
    [{ ln: 15, r: 8, p: 3 }, false], // the default
    [{ ln: 17, r: 8, p: 1 }, false], // OWASP's first
  ])("scrypt %j: the weak-password-hash warning is %s", (scrypt, warned) => {
    const warnings: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      adapter: memoryAdapter(),
      providers: [Password({ scrypt, sendMail: () => {} })],
      logger: { warn: (code) => warnings.push(code), error: () => {}, debug: () => {} },
    }
    expect(resolveConfig(config, { NODE_ENV: "production" }).error).toBeUndefined()
    expect(warnings.includes("weak-password-hash")).toBe(warned)
  })
})
