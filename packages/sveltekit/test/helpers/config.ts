/** Test configurations: one credentials provider accepting alice / wonderland. */
import { decode } from "@latch/core/jwt"
import type { JWTDecodeParams } from "@latch/core/jwt"
import type { SvelteKitAuthConfig } from "../../src/lib/index.js"
import Credentials from "../../src/lib/providers/credentials.js"
import { SECRET } from "./event.js"

export const ALICE = { id: "u1", name: "Alice", email: "alice@example.com" }

/** A fresh configuration object (configurations are prepared once per object). */
export function testConfig(overrides: Partial<SvelteKitAuthConfig> = {}): SvelteKitAuthConfig {
  return {
    secret: SECRET,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { type: "password" } },
        authorize: (credentials) =>
          credentials.username === "alice" && credentials.password === "wonderland" ? ALICE : null,
      }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  }
}

/** `decode` from `@latch/core/jwt`, counting its calls. */
export function countingDecode() {
  const counter = {
    calls: 0,
    decode: async (params: JWTDecodeParams) => {
      counter.calls++
      return decode(params)
    },
  }
  return counter
}
