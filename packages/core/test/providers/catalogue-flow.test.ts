/**
 * The provider catalogue, table-driven: for every built-in OAuth and OpenID Connect provider, a
 * whole sign-in through `Auth()` against a local server speaking the provider's documented
 * protocol (see `catalogue/run.ts`), then the session's user, the `Account` row and its
 * `providerAccountId`. A test below also checks that the cases cover every provider module.
 */
import { readdirSync } from "node:fs"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startOAuthServer, type OAuthServer } from "../helpers/oauth-server.js"
import { allCases } from "./catalogue/index.js"
import { prepare, signIn, stopAll } from "./catalogue/run.js"

let server: OAuthServer

beforeAll(async () => {
  server = await startOAuthServer()
  await Promise.all(allCases.map((c) => prepare(c, server)))
  // Keys for every provider's server: seconds on a machine busy with other work.
}, 60_000)
afterAll(async () => {
  await Promise.all([server?.stop(), stopAll()])
})

describe.each(allCases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
  it("signs in, storing the account under the provider's user id", async () => {
    const outcome = await signIn(c, server)
    expect(outcome.location).toBe("http://localhost:3000/dashboard")
    expect(outcome.accounts).toHaveLength(1)
    expect(outcome.accounts[0]).toMatchObject({
      provider: c.id,
      type: c.kind === "oidc" ? "oidc" : "oauth",
      providerAccountId: c.expect.providerAccountId,
    })
    // A field the provider leaves out is stored as null or not at all, as the adapter does: compare
    // what is there.
    const { providerAccountId: _, ...user } = c.expect
    expect(present(outcome.user)).toEqual(present(user))
  })
})

function present(record: object | null | undefined) {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([, value]) => value != null))
}

it("covers every OAuth and OpenID provider module", () => {
  const dir = new URL("../../src/providers/", import.meta.url)
  const notOAuth = new Set([
    "index",
    "oauth",
    "credentials",
    "email",
    "nodemailer",
    "passkey",
    // Password accounts kept by Latch, proven in flows/password-sign-in.test.ts.
    "password",
    "webauthn",
    "provider-types",
    // The email-API providers, proven in email-api.test.ts.
    "resend",
    "sendgrid",
    "postmark",
    "mailgun",
    "forwardemail",
    "loops",
  ])
  const modules = readdirSync(dir)
    .map((file) => file.replace(/\.ts$/, ""))
    .filter((id) => !notOAuth.has(id))
  const covered = new Set(allCases.map((c) => c.module ?? c.id))
  expect(modules.filter((id) => !covered.has(id))).toEqual([])
})
