/**
 * Attack: forged host and forwarding headers.
 *
 * Whoever sends a request chooses its `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto` and
 * `Forwarded` headers. Were any of them to name the site, one request would move a genuine
 * sign-in mail's link to the attacker's host ("Sign in to evil.example"), and with it redirects,
 * `redirect_uri`s, the WebAuthn relying party and the origin a redirect proxy forwards to.
 *
 * Every case below is the attacker's request with every such header forged, on a configuration
 * that trusts the request's URL (`trustHost`, as SvelteKit's integration does), and the safe
 * outcome: every URL in the answer, the mail and the redirects starts at the request URL's
 * origin (or `AUTH_URL`), and "evil.example" appears nowhere.
 */
import { startMailbox, type Mailbox } from "latch-mailbox"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth, setEnvDefaults } from "../../src/index.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import Password from "../../src/providers/password.js"
import { hashPassword } from "../../src/password/hash.js"
import type { OIDCConfig } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { CLIENTS, login, PROXY_ORIGIN, startOP, type OP } from "../helpers/oidc-provider.js"
import { ALICE, Browser, ORIGIN, testConfig } from "../helpers/request.js"

const EVIL = "evil.example"
/** Cheap scrypt parameters (the defaults cost ~0.4 s a hash). */
const FAST = { ln: 10, r: 8, p: 1 }

/** Every header a proxy (or an attacker) may use to name a host, a scheme or a client. */
const FORGED: Record<string, string> = {
  host: EVIL,
  "x-forwarded-host": EVIL,
  "x-forwarded-proto": "https",
  "x-forwarded-port": "443",
  "x-forwarded-server": EVIL,
  "x-original-host": EVIL,
  "x-host": EVIL,
  forwarded: `for=192.0.2.1;host=${EVIL};proto=https`,
  "x-forwarded-for": "192.0.2.1",
}

/** A browser whose every request carries the forged headers. */
class Attacker extends Browser {
  override fetch(path: string, init: Parameters<Browser["fetch"]>[1] = {}) {
    return super.fetch(path, { ...init, headers: { ...FORGED, ...(init.headers as object) } })
  }
}

let mailbox: Mailbox
let op: OP
beforeAll(async () => {
  ;[mailbox, op] = await Promise.all([startMailbox(), startOP()])
})
afterAll(async () => {
  await Promise.all([mailbox?.close(), op?.stop()])
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
})

function oidc(extra: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id: "op", name: "Test OP", type: "oidc", issuer: op.issuer, ...CLIENTS.basic, ...extra }
}

/** Credentials (from testConfig), email links over real SMTP, a real OpenID Provider, passkeys. */
function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  const base = testConfig()
  const adapter = memoryAdapter()
  adapter.createUser!({ ...ALICE, emailVerified: null })
  return testConfig({
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      ...base.providers,
      Nodemailer({
        server: { host: "127.0.0.1", port: mailbox.port, secure: false, ignoreTLS: true },
        from: "Example <no-reply@example.com>",
      }),
      oidc(),
      Passkey({}),
    ],
    ...extra,
  })
}

/** Status, headers and body of a response, as text, for "evil.example appears nowhere". */
async function everything(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n")
  return `${response.status}\n${headers}\n\n${await response.clone().text()}`
}

/** No server error (but the Configuration error page, which is a 500 by design), no EVIL. */
async function expectSafe(response: Response, status = response.status): Promise<void> {
  expect(status).toBeLessThan(500)
  expect(await everything(response)).not.toContain(EVIL)
}

const location = (response: Response) => response.headers.get("location") ?? ""

let counter = 0
const newAddress = () => `forged${++counter}-${Date.now()}@example.com`

describe("a forged host on every action that answers a page or JSON", () => {
  it.each([
    "/auth/signin",
    "/auth/signin?callbackUrl=%2Fdashboard",
    "/auth/signout",
    "/auth/error?error=Configuration",
    "/auth/error?error=Verification",
    "/auth/verify-request?provider=nodemailer&type=email",
    "/auth/csrf",
    "/auth/session",
    "/auth/providers",
    "/auth/nope",
    "/auth/signin/op",
  ])("GET %s names only the site's own origin", async (path) => {
    const response = await new Attacker(config()).fetch(path)
    await expectSafe(response, path.endsWith("error=Configuration") ? 200 : response.status)
  })

  it("lists providers whose URLs all start at the site's origin", async () => {
    const response = await new Attacker(config()).fetch("/auth/providers")
    const providers = (await response.json()) as Record<string, Record<string, string>>
    expect(Object.keys(providers)).toEqual(["credentials", "nodemailer", "op", "passkey"])
    for (const provider of Object.values(providers)) {
      expect(provider.signinUrl!.startsWith(`${ORIGIN}/auth/`)).toBe(true)
      expect(provider.callbackUrl!.startsWith(`${ORIGIN}/auth/`)).toBe(true)
    }
  })
})

describe("a forged host on an email sign-in", () => {
  it("mails a link to the site's own origin (the poisoned-link takeover)", async () => {
    const attacker = new Attacker(config())
    const address = newAddress()
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch("/auth/signin/nodemailer", {
      form: { csrfToken, email: address, callbackUrl: "/dashboard" },
      headers: { "x-auth-return-redirect": "1" },
    })
    await expectSafe(response)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).origin).toBe(ORIGIN)

    const mail = await mailbox.nextFor(address)
    expect(mail.subject).toBe("Sign in to localhost:3000")
    expect(mail.raw).not.toContain(EVIL)
    const link = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
    expect(link.origin).toBe(ORIGIN)
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    expect(new URL(link.searchParams.get("callbackUrl")!).origin).toBe(ORIGIN)
  })

  it("mails a link to AUTH_URL, whatever the request says", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example.com")
    const attacker = new Attacker(config({ trustHost: false }))
    const address = newAddress()
    const csrfToken = await attacker.csrfToken()
    await expectSafe(
      await attacker.fetch("/auth/signin/nodemailer", { form: { csrfToken, email: address } }),
    )
    const link = new URL(/https?:\/\/\S+/.exec((await mailbox.nextFor(address)).text ?? "")![0])
    expect(link.origin).toBe("https://app.example.com")
  })
})

describe("a forged host on password accounts' mails", () => {
  /** The configuration with a Password provider, whose mails go through Nodemailer. */
  const withPassword = (extra: Partial<AuthConfig> = {}) => {
    const base = config(extra)
    return { ...base, providers: [...base.providers, Password({ scrypt: FAST })] }
  }

  it.each([
    [
      "sign-up",
      "/auth/signup/password",
      { password: "correct horse battery" },
      "/auth/verify-email/password",
    ],
    ["reset", "/auth/reset-password/password", {}, "/auth/new-password/password"],
  ])("mails a %s link to AUTH_URL, whatever the request says", async (_, path, form, linkPath) => {
    vi.stubEnv("AUTH_URL", "https://app.example.com")
    const cfg = withPassword({ trustHost: false })
    const address = newAddress()
    // The reset link goes to an account; the sign-up link to a new address.
    if (linkPath.includes("new-password")) {
      const user = await cfg.adapter!.createUser!({
        id: crypto.randomUUID(),
        email: address,
        emailVerified: new Date(),
      })
      await cfg.adapter!.setPasswordHash!(user.id, await hashPassword("an old password", FAST))
    }
    const attacker = new Attacker(cfg)
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch(path, {
      form: { csrfToken, email: address, callbackUrl: "/dashboard", ...form },
    })
    await expectSafe(response)
    expect(new URL(location(response)).origin).toBe("https://app.example.com")
    const mail = await mailbox.nextFor(address)
    expect(mail.raw).not.toContain(EVIL)
    const link = new URL(/https?:\/\/\S+/.exec(mail.text ?? "")![0])
    expect(link.origin).toBe("https://app.example.com")
    expect(link.pathname).toBe(linkPath)
  })
})

describe("a forged host on redirects", () => {
  it("keeps the OAuth redirect_uri on the site's origin", async () => {
    const attacker = new Attacker(config())
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch("/auth/signin/op", { form: { csrfToken } })
    expect(response.status).toBe(302)
    const authorization = new URL(location(response))
    expect(authorization.origin).toBe(new URL(op.issuer).origin)
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/op`)
    expect(location(response)).not.toContain(EVIL)
  })

  it("does not let a callbackUrl on the forged host pass as same-origin", async () => {
    const attacker = new Attacker(config())
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch("/auth/callback/credentials", {
      form: {
        csrfToken,
        username: "alice",
        password: "wonderland",
        callbackUrl: `https://${EVIL}/`,
      },
    })
    expect(response.status).toBe(302)
    expect(location(response)).toBe(`${ORIGIN}/`)
    await expectSafe(response)
  })

  it("signs out to the site's origin, not the forged one", async () => {
    const attacker = new Attacker(config())
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch("/auth/signout", {
      form: { csrfToken, callbackUrl: `https://${EVIL}/after` },
    })
    expect(location(response)).toBe(`${ORIGIN}/`)
    await expectSafe(response)
  })

  it("sends errors to the site's own error page", async () => {
    const attacker = new Attacker(config())
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.fetch("/auth/signin/unknown", {
      form: { csrfToken },
      headers: { "x-auth-return-redirect": "1" },
    })
    await expectSafe(response)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).origin).toBe(ORIGIN)
  })
})

describe("a forged host on passkeys", () => {
  it("keeps the relying party id on the site's host", async () => {
    const response = await new Attacker(config()).fetch(
      "/auth/webauthn-options/passkey?action=authenticate",
    )
    expect(response.status).toBe(200)
    await expectSafe(response)
    const body = (await response.json()) as { options: { rpId: string } }
    expect(body.options.rpId).toBe("localhost")
  })
})

describe("a forged host through the redirect proxy", () => {
  it("seals the site's own origin into state, and the proxy forwards there", async () => {
    const redirectProxyUrl = `${PROXY_ORIGIN}/auth`
    const app = new Attacker(config({ redirectProxyUrl }))
    const proxy = new Browser(
      config({ redirectProxyUrl, redirectProxyAllowedOrigins: [ORIGIN, `https://${EVIL}`] }),
      PROXY_ORIGIN,
    )
    const csrfToken = await app.csrfToken()
    const start = await app.fetch("/auth/signin/op", { form: { csrfToken } })
    const back = await login(app, location(start), { returnTo: PROXY_ORIGIN })
    const forwarded = await proxy.fetch(back)
    expect(forwarded.status).toBe(302)
    // Even with the forged host on the proxy's own list, the sealed origin is the real one.
    expect(new URL(location(forwarded)).origin).toBe(ORIGIN)
  })
})

describe("where the origin cannot be trusted", () => {
  it("fails closed without AUTH_URL and trustHost, naming neither header nor host", async () => {
    const response = await new Attacker(config({ trustHost: false })).fetch("/auth/signin")
    expect(response.status).toBe(500)
    expect(await everything(response)).not.toContain(EVIL)
  })
})

describe("the origin-from-request warning", () => {
  const warnings = (env: Record<string, string>, extra: Partial<AuthConfig> = {}) => {
    const warn = vi.fn()
    const cfg = testConfig({ logger: { warn, error: () => {}, debug: () => {} }, ...extra })
    setEnvDefaults({ NODE_ENV: "production", ...env }, cfg)
    return Auth(new Request(`${ORIGIN}/auth/csrf`), cfg).then(() =>
      warn.mock.calls.map(([code]) => code as string).filter((code) => code.startsWith("origin")),
    )
  }

  it("warns once in production when nothing pins the origin", async () => {
    expect(await warnings({})).toEqual(["origin-from-request"])
  })

  it.each([
    ["AUTH_URL", { AUTH_URL: ORIGIN }],
    ["adapter-node's ORIGIN", { ORIGIN }],
    ["ORIGIN under an ENV_PREFIX", { ENV_PREFIX: "APP_", APP_ORIGIN: ORIGIN }],
    ["adapter-node's HOST_HEADER", { HOST_HEADER: "x-forwarded-host" }],
    ["Vercel", { VERCEL: "1" }],
  ])("stays quiet with %s", async (_case, env: Record<string, string>) => {
    expect(await warnings(env)).toEqual([])
  })

  it("stays quiet outside production", async () => {
    expect(await warnings({ NODE_ENV: "development" })).toEqual([])
  })
})
