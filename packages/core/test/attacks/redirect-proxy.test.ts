/**
 * Attack: make a redirect proxy forward a victim's authorization code somewhere else.
 *
 * The proxy (the stable deployment at `redirectProxyUrl`) receives every provider callback and
 * forwards it — authorization code included — to the origin sealed in `state`. Anyone holding
 * the secret (every preview deployment) can seal any origin; an old `state` can be replayed.
 * Safe outcome: the proxy forwards only to origins its deployer listed, and only while the
 * sealed state is fresh; otherwise the error page, with no code in any URL it sends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { OIDCConfig } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { CLIENTS, login, PROXY_ORIGIN, startOP, type OP } from "../helpers/oidc-provider.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

let op: OP
beforeAll(async () => {
  op = await startOP()
})
afterAll(() => op?.stop())
afterEach(() => vi.useRealTimers())

const redirectProxyUrl = `${PROXY_ORIGIN}/auth`

function deployment(extra: Partial<AuthConfig> = {}) {
  const error = vi.fn<(error: Error) => void>()
  const provider: OIDCConfig = {
    id: "op",
    name: "Test OP",
    type: "oidc",
    issuer: op.issuer,
    ...CLIENTS.basic,
  }
  const config = testConfig({
    providers: [provider],
    redirectProxyUrl,
    logger: { error, warn: () => {}, debug: () => {} },
    ...extra,
  })
  return { config, error }
}

const location = (response: Response) => response.headers.get("location") ?? ""

/** The app starts a sign-in; the provider sends the browser back to the proxy with a code. */
async function callbackAtProxy(origin = ORIGIN): Promise<{ app: Browser; back: string }> {
  const app = new Browser(deployment().config, origin)
  const csrfToken = await app.csrfToken()
  const start = await app.fetch("/auth/signin/op", { form: { csrfToken } })
  const back = await login(app, location(start), { returnTo: PROXY_ORIGIN })
  expect(new URL(back).searchParams.get("code")).toBeTruthy()
  return { app, back }
}

/** The proxy refused: its own error page, no code anywhere, the reason logged. */
function expectRefused(response: Response, error: ReturnType<typeof vi.fn>, type: string) {
  expect(response.status).toBe(302)
  const target = new URL(location(response))
  expect(target.origin + target.pathname).toBe(`${PROXY_ORIGIN}/auth/error`)
  expect(target.searchParams.get("error")).toBe("Configuration")
  expect(location(response)).not.toContain("code=")
  expect(error).toHaveBeenCalledWith(expect.objectContaining({ type }))
}

describe("the redirect proxy", () => {
  it("forwards nowhere when its deployer listed no origins", async () => {
    const { back } = await callbackAtProxy()
    const { config, error } = deployment()
    const response = await new Browser(config, PROXY_ORIGIN).fetch(back)
    expectRefused(response, error, "InvalidCallbackUrl")
  })

  it("refuses an origin its list does not hold", async () => {
    const { back } = await callbackAtProxy()
    const { config, error } = deployment({
      redirectProxyAllowedOrigins: ["https://localhost:3000", "http://localhost:3001"],
    })
    expectRefused(await new Browser(config, PROXY_ORIGIN).fetch(back), error, "InvalidCallbackUrl")
  })

  it("forwards to a preview deployment a wildcard pattern matches", async () => {
    const preview = "http://app-pr-7.preview.localhost:3000"
    const { app, back } = await callbackAtProxy(preview)
    const { config } = deployment({
      redirectProxyAllowedOrigins: ["http://app-*.preview.localhost:3000"],
    })
    const response = await new Browser(config, PROXY_ORIGIN).fetch(back)
    expect(response.status).toBe(302)
    const target = new URL(location(response))
    expect(target.origin + target.pathname).toBe(`${preview}/auth/callback/op`)
    // …where the deployment that started it finishes the sign-in.
    expect((await app.fetch(target.href)).status).toBe(302)
    expect((await app.session())?.user?.email).toBe("alice@example.com")
  })

  it("reads its list from AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS", async () => {
    vi.stubEnv("AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS", `https://other.example, ${ORIGIN}`)
    try {
      const { back } = await callbackAtProxy()
      const response = await new Browser(deployment().config, PROXY_ORIGIN).fetch(back)
      expect(new URL(location(response)).origin).toBe(ORIGIN)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("refuses a sealed state older than the check cookies' 15 minutes", async () => {
    const { back } = await callbackAtProxy()
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 16 * 60 * 1000)
    const { config, error } = deployment({ redirectProxyAllowedOrigins: [ORIGIN] })
    expectRefused(await new Browser(config, PROXY_ORIGIN).fetch(back), error, "InvalidCheck")
  })
})

describe("the list of allowed origins", () => {
  it.each([
    ["not an origin", "localhost:3000"],
    ["a path", "https://app.example.com/auth"],
    ["credentials", "https://user@app.example.com"],
    ["another scheme", "javascript://app.example.com"],
    ["a wildcard in the registrable domain", "https://app.*.com"],
    ["a wildcard top-level domain", "https://example.*"],
    ["every site of a shared host", "https://*.vercel.app"],
    ["a wildcard in the port", "https://app.example.com:*"],
    ["a wildcard in a one-label host", "http://*host:3000"],
  ])("is refused at start-up when an entry has %s", async (_case, entry) => {
    const { config, error } = deployment({ redirectProxyAllowedOrigins: [entry] })
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(response.status).toBe(500)
    const body = (await response.json()) as { message: string }
    expect(body.message).toContain("redirectProxyAllowedOrigins")
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({
        type: "InvalidCallbackUrl",
        message: expect.stringContaining(JSON.stringify(entry)),
      }),
    )
  })
})
