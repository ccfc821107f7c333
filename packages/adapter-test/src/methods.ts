import type { Adapter } from "@latch/core/adapters"

/** Every method the suite expects an adapter to implement. */
export const adapterMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "listSessionsByUserId",
  "deleteSessionsByUserId",
  "createVerificationToken",
  "useVerificationToken",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "incrementCounter",
] as const satisfies readonly (keyof Adapter)[]
