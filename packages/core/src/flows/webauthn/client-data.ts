/**
 * The checks of the client data that Latch makes before the library verifies signatures, so
 * that a response from another site or for another challenge is refused with a precise code.
 * The library repeats them; they are cheap.
 */
import { timingSafeEqual } from "../../lib/crypto.js"
import type { RelyingParty } from "../../providers/webauthn.js"
import { parseClientData } from "./encoding.js"
import { refuse, type CredentialResponse } from "./response.js"

/** Checks the response's client data: ceremony type, challenge and origin. */
export function checkClientData(
  response: CredentialResponse,
  expected: { type: "webauthn.create" | "webauthn.get"; challenge: string; rp: RelyingParty },
): void {
  const client = parseClientData(response.response.clientDataJSON)
  if (!client || client.type !== expected.type) {
    refuse("invalid-response", `The client data is not that of a ${expected.type} ceremony`)
  }
  if (!timingSafeEqual(client.challenge, expected.challenge)) {
    refuse("challenge", "The response answers another challenge")
  }
  const origins = [expected.rp.origin].flat()
  if (!origins.includes(client.origin)) {
    refuse("origin", `The response was made on ${JSON.stringify(client.origin)}`)
  }
}
