// A small site of its own for passkey-attestation.spec.ts: Node's http server on 127.0.0.1 (a
// port the system picks), @latch/core's Auth() under /auth with a password and a Passkey
// provider under the attestation policy the test gives, and an embedded PGlite database. The
// demo runs without a policy; a policy is a deployment's choice, so each test starts the site
// it needs rather than the demo growing a switch for it. The database is shared by the sites of
// a spec file (starting PGlite is the slow part).
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { PGlite } from "@electric-sql/pglite"
import { Auth, type AuthConfig } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import Passkey, { type WebAuthnAttestationPolicy } from "@latch/core/providers/passkey"
import { migrate, PostgresAdapter } from "@latch/pg-adapter"

export const SITE_USER = { id: "alice", name: "Alice", email: "alice@example.com" }
export const SITE_PASSWORD = "wonderland"

export interface Site {
  origin: string
  close(): Promise<void>
}

/** An embedded database with the schema and the site's user. */
export async function openDatabase(): Promise<PGlite> {
  const db = new PGlite("memory://")
  await migrate(db)
  await PostgresAdapter(db).createUser!({ ...SITE_USER, emailVerified: new Date(), image: null })
  return db
}

export async function startSite(
  db: PGlite,
  attestation?: WebAuthnAttestationPolicy,
): Promise<Site> {
  const adapter = PostgresAdapter(db)
  let origin = ""
  const config = (): AuthConfig => ({
    secret: "latch-e2e-attestation-secret-0123456789abcdef",
    // The origin is the site's own setting (below), never a request header.
    trustHost: true,
    adapter,
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === SITE_USER.id && password === SITE_PASSWORD ? SITE_USER : null,
      }),
      Passkey({ relyingParty: { name: "Attestation test" }, attestation }),
    ],
  })
  let resolved: AuthConfig | undefined

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin)
    if (!url.pathname.startsWith("/auth/")) {
      res.setHeader("content-type", "text/html; charset=utf-8")
      res.end("<!doctype html><title>Attestation test</title><p>A page to run ceremonies on.</p>")
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value)
    }
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    const response = await Auth(
      new Request(url, { method: req.method, headers, body }),
      (resolved ??= config()),
    )
    res.statusCode = response.status
    for (const [name, value] of response.headers) {
      if (name !== "set-cookie") res.setHeader(name, value)
    }
    res.setHeader("set-cookie", response.headers.getSetCookie())
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  // Browsers refuse passkeys on an IP address: the site is opened at localhost.
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
  return {
    origin,
    async close() {
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
