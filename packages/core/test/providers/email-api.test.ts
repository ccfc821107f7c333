/**
 * The mail API providers (Resend, SendGrid, Postmark, Mailgun, Forward Email, Loops) against one
 * local server that checks each service's documented request and answers its documented
 * responses: the whole sign-in through `Auth()` — link requested, the service called with the
 * link, the link signs the user in — and every failure (a refusal with the service's message, a
 * wrong key, a rate limit, a server error, no answer) as `EmailSignin`, the service's reason in
 * the log, and the address nowhere the user or the log can see it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { customFetch, setEnvDefaults } from "../../src/index.js"
import { normalizeProviders } from "../../src/config/providers.js"
import { EmailSignInError, InvalidProvider, type AuthError } from "../../src/errors.js"
import { EmailApiError, parseMailbox, reasonOf } from "../../src/lib/email-api.js"
import type { EmailConfig } from "../../src/providers/email.js"
import ForwardEmail from "../../src/providers/forwardemail.js"
import Loops from "../../src/providers/loops.js"
import Mailgun from "../../src/providers/mailgun.js"
import Postmark from "../../src/providers/postmark.js"
import Resend from "../../src/providers/resend.js"
import SendGrid from "../../src/providers/sendgrid.js"
import type { AuthConfig } from "../../src/types.js"
import {
  LOOPS_TRANSACTIONAL_ID,
  mailApis,
  startMailApiServer,
  type MailApiServer,
  type Mode,
  type ReceivedMail,
  type Reply,
} from "../helpers/mail-api-server.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { followLink } from "../helpers/continue-page.js"
import { Browser, ORIGIN, testConfig } from "../helpers/request.js"

const KEY = "key-0123456789abcdef"
const FROM = "Example <no-reply@mg.example.com>"

interface Case {
  id: keyof typeof mailApis
  name: string
  make: (options: Record<string, unknown>) => EmailConfig
  /** The variables a deployment sets besides the key. */
  env: Record<string, string>
  /** Whether the service sends Latch's mail (Loops sends its own template). */
  sendsTemplate: boolean
}

const cases: Case[] = [
  {
    id: "resend",
    name: "Resend",
    make: Resend,
    env: { AUTH_EMAIL_FROM: FROM },
    sendsTemplate: true,
  },
  {
    id: "sendgrid",
    name: "SendGrid",
    make: SendGrid,
    env: { AUTH_EMAIL_FROM: FROM },
    sendsTemplate: true,
  },
  {
    id: "postmark",
    name: "Postmark",
    make: Postmark,
    env: { AUTH_EMAIL_FROM: FROM },
    sendsTemplate: true,
  },
  {
    id: "mailgun",
    name: "Mailgun",
    make: Mailgun,
    env: { AUTH_EMAIL_FROM: FROM },
    sendsTemplate: true,
  },
  {
    id: "forwardemail",
    name: "Forward Email",
    make: ForwardEmail,
    env: { AUTH_EMAIL_FROM: FROM },
    sendsTemplate: true,
  },
  {
    id: "loops",
    name: "Loops",
    make: Loops as Case["make"],
    env: { AUTH_LOOPS_TRANSACTIONAL_ID: LOOPS_TRANSACTIONAL_ID },
    sendsTemplate: false,
  },
]

let server: MailApiServer
beforeAll(async () => {
  server = await startMailApiServer()
  for (const [id, spec] of Object.entries(mailApis)) server.register(id, spec, KEY)
  server.register(
    "mailgun-eu",
    { ...mailApis.mailgun, url: "https://api.eu.mailgun.net/v3/mg.example.com/messages" },
    KEY,
  )
})
afterAll(() => server.stop())
afterEach(() => {
  for (const id of [...Object.keys(mailApis), "mailgun-eu"]) server.mode(id, "success")
})

let counter = 0
/** A fresh address per test, so tests never share rate limits or mail. */
const newAddress = () => `user${++counter}.${Date.now()}@example.org`
const path = (url: URL) => `${url.pathname}${url.search}`
const envName = (id: string) => `AUTH_${id.toUpperCase()}_KEY`

interface Setup {
  browser: Browser
  adapter: MemoryAdapter
  errors: Error[]
}

/** A configuration with the provider; `env` is what `setEnvDefaults` reads. */
function setup(
  c: Case,
  options: Record<string, unknown>,
  env: Record<string, string> = {},
  overrides: Partial<AuthConfig> = {},
): Setup {
  const adapter = memoryAdapter()
  const errors: Error[] = []
  const config = testConfig({
    adapter,
    providers: [c.make({ [customFetch]: server.fetch, ...options })],
    logger: { error: (error) => errors.push(error), warn() {}, debug() {} },
    ...overrides,
  })
  setEnvDefaults(env, config)
  return { browser: new Browser(config), adapter, errors }
}

/** The options that make each provider send, given explicitly. */
function explicit(c: Case): Record<string, unknown> {
  return c.id === "loops"
    ? { apiKey: KEY, transactionalId: LOOPS_TRANSACTIONAL_ID }
    : { apiKey: KEY, from: FROM }
}

async function requestLink(browser: Browser, id: string, email: string) {
  const csrfToken = await browser.csrfToken()
  return browser.fetch(`/auth/signin/${id}`, {
    form: { csrfToken, email, callbackUrl: "/dashboard" },
  })
}

function mailsTo(address: string): ReceivedMail[] {
  return server.received.filter((mail) => mail.to === address)
}

/** The sign-in link in what the service received: the text part, or Loops' data variable. */
function linkIn(mail: ReceivedMail): URL {
  if (mail.dataVariables) return new URL(String(mail.dataVariables.url))
  const match = /https?:\/\/\S+/.exec(mail.text ?? "")
  expect(match).not.toBeNull()
  return new URL(match![0])
}

/** The message a documented answer carries, as the test expects to find it in the log. */
function documentedMessage(reply: Reply): string {
  if (reply.text !== undefined) return reply.text
  const body = reply.json as Record<string, any>
  return body.message ?? body.Message ?? body.errors[0].message
}

describe.each(cases)("$id", (c) => {
  it(`is "${c.id}" / "${c.name}" / "email", as in Auth.js`, () => {
    const provider = c.make({})
    expect({ id: provider.id, name: provider.name, type: provider.type }).toEqual({
      id: c.id,
      name: c.name,
      type: "email",
    })
  })

  it(`sends the link through the API with ${envName(c.id)}; the link signs the user in`, async () => {
    const { browser, adapter, errors } = setup(c, {}, { [envName(c.id)]: KEY, ...c.env })
    const address = newAddress()
    const response = await requestLink(browser, c.id, address)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
    expect(server.refusals).toEqual([])
    expect(errors).toEqual([])

    const mails = mailsTo(address)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.service).toBe(c.id)
    const link = linkIn(mail)
    expect(link.origin).toBe(ORIGIN)
    expect(link.pathname).toBe(`/auth/callback/${c.id}`)
    expect(link.searchParams.get("email")).toBe(address)
    expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/)
    if (c.sendsTemplate) {
      // The shared template: the subject, the text part and the HTML part carry the link.
      expect(mail.from).toBe(FROM)
      expect(mail.subject).toBe("Sign in to localhost:3000")
      expect(mail.text).toContain("Sign in to localhost:3000")
      const href = /href="([^"]+)"/.exec(mail.html ?? "")![1]!
      expect(href.replace(/&amp;/g, "&").replace(/&#61;/g, "=")).toBe(link.href)
    } else {
      expect(mail.fields).toEqual({
        transactionalId: LOOPS_TRANSACTIONAL_ID,
        email: address,
        dataVariables: { url: link.href },
      })
    }

    const signedIn = await followLink(browser, path(link))
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.email).toBe(address)
    expect([...adapter.accounts.values()]).toEqual([
      expect.objectContaining({ type: "email", provider: c.id, providerAccountId: address }),
    ])
  })

  const failures: Array<[string, Mode | "wrongKey" | "timeout", (reply: Reply) => string]> = [
    ["a refusal with the service's message", "invalid", (r) => `HTTP ${r.status}`],
    ["a wrong API key", "wrongKey", (r) => `HTTP ${r.status}`],
    ["a rate limit (429)", "rateLimited", () => "rate-limited the sign-in mail (HTTP 429"],
    ["a server error (5xx)", "serverError", () => "failed to send the sign-in mail (HTTP 500)"],
    ["no answer within the timeout", "timeout", () => "did not answer within 0.3 s"],
  ]

  it.each(failures)(
    "fails on %s as EmailSignin, the reason logged, no address shown",
    async (_, failure, expected) => {
      const spec = mailApis[c.id]
      const { browser, errors } = setup(c, {
        ...explicit(c),
        timeout: 0.3,
        ...(failure === "wrongKey" ? { apiKey: "not-the-key" } : {}),
      })
      if (failure === "timeout") server.mode(c.id, "hang")
      else if (failure !== "wrongKey") server.mode(c.id, failure)
      const address = newAddress()

      const response = await requestLink(browser, c.id, address)
      const location = new URL(response.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("EmailSignin")
      expect(location.href.toLowerCase()).not.toContain("example.org")
      expect(mailsTo(address)).toEqual([])

      // The operator sees the service's reason; the recipient's address is in no message.
      const failure_ = errors.find((error) => error instanceof EmailSignInError) as AuthError
      expect(failure_).toBeDefined()
      const cause = failure_.cause?.err
      expect(cause).toBeInstanceOf(EmailApiError)
      const reply =
        failure === "invalid"
          ? spec.answers.invalid(address)
          : failure === "wrongKey"
            ? spec.answers.unauthorized
            : failure === "timeout"
              ? undefined
              : spec.answers[failure as "rateLimited" | "serverError"]
      expect(cause!.message).toContain(expected(reply ?? { status: 0 }))
      if (reply) {
        expect(cause!.message).toContain(documentedMessage(reply).replace(address, "[recipient]"))
      }
      for (const error of errors) {
        expect(error.message).not.toContain(address)
        expect((error as AuthError).cause?.err?.message ?? "").not.toContain(address)
      }

      // The page shows the error code's text, nothing of the service's answer.
      const page = await browser.fetch(path(location))
      const html = await page.text()
      expect(page.status).toBe(200)
      expect(html).not.toContain(address)
      if (reply) expect(html).not.toContain(documentedMessage(reply).slice(0, 30))
    },
  )

  it(`refuses to start without an API key, naming ${envName(c.id)}`, async () => {
    const options = { ...explicit(c), apiKey: undefined }
    expect(() => normalizeProviders([c.make(options)], {})).toThrow(
      new RegExp(`has no apiKey: set ${envName(c.id)}`),
    )
    const { browser, errors } = setup(c, options)
    const before = server.requests.length
    const response = await browser.fetch("/auth/csrf")
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: "Configuration" })
    expect(errors.find((error) => error instanceof InvalidProvider)?.message).toContain(
      envName(c.id),
    )
    expect(server.requests.length).toBe(before)
  })

  it("fills apiKey from AUTH_<ID>_KEY in setEnvDefaults, keeping a given one", () => {
    const config = testConfig({ providers: [c.make({}), c.make({ id: "mine", apiKey: "given" })] })
    setEnvDefaults({ [envName(c.id)]: "from-env", AUTH_MINE_KEY: "other" }, config)
    const [fromEnv, given] = config.providers as EmailConfig[]
    expect(fromEnv!.apiKey).toBe("from-env")
    expect(given!.apiKey).toBe("given")
  })
})

describe("start-up checks", () => {
  it.each(cases.filter((c) => c.id !== "loops"))(
    "$id needs a sender: from or AUTH_EMAIL_FROM, one address",
    (c) => {
      expect(() => normalizeProviders([c.make({ apiKey: KEY })], {})).toThrow(
        /has no sender: set AUTH_EMAIL_FROM/,
      )
      expect(() =>
        normalizeProviders([c.make({ apiKey: KEY, from: "not an address" })], {}),
      ).toThrow(/has a `from` that is not one address/)
      const [filled] = normalizeProviders([c.make({ apiKey: KEY })], {
        AUTH_EMAIL_FROM: FROM,
      }).values()
      expect((filled as EmailConfig).from).toBe(FROM)
    },
  )

  it("names the variable of a provider's own id: AUTH_MAGIC_KEY", () => {
    expect(() => normalizeProviders([Resend({ id: "magic", from: FROM })], {})).toThrow(
      '"providers[0]" ("magic") has no apiKey: set AUTH_MAGIC_KEY (or `apiKey`)',
    )
    const [filled] = normalizeProviders([Resend({ id: "magic", from: FROM })], {
      AUTH_MAGIC_KEY: KEY,
    }).values()
    expect((filled as EmailConfig).apiKey).toBe(KEY)
  })

  it("Loops needs a transactional id: transactionalId or AUTH_LOOPS_TRANSACTIONAL_ID", () => {
    expect(() => normalizeProviders([Loops({ apiKey: KEY })], {})).toThrow(
      "has no transactionalId: set AUTH_LOOPS_TRANSACTIONAL_ID (or `transactionalId`)",
    )
    const [filled] = normalizeProviders([Loops], {
      AUTH_LOOPS_KEY: KEY,
      AUTH_LOOPS_TRANSACTIONAL_ID: "tx",
    }).values()
    expect(filled).toMatchObject({ apiKey: KEY, transactionalId: "tx" })
  })

  it("checks nothing when the app sends with its own sendVerificationRequest", () => {
    const own = Resend({ sendVerificationRequest: () => {} })
    expect(() => normalizeProviders([own], {})).not.toThrow()
  })

  it("refuses a Mailgun region other than US or EU, and a bad timeout", () => {
    expect(() =>
      normalizeProviders([Mailgun({ apiKey: KEY, from: FROM, region: "APAC" as "EU" })], {}),
    ).toThrow('has region "APAC": use "US" or "EU"')
    expect(() =>
      normalizeProviders([Postmark({ apiKey: KEY, from: FROM, timeout: 0 })], {}),
    ).toThrow("has a timeout that is not a positive number of seconds")
  })
})

describe("service specifics", () => {
  it("Mailgun's EU region sends to api.eu.mailgun.net", async () => {
    const c = cases.find((entry) => entry.id === "mailgun")!
    const { browser } = setup(c, { ...explicit(c), region: "EU" })
    const address = newAddress()
    await requestLink(browser, "mailgun", address)
    expect(mailsTo(address).map((mail) => mail.service)).toEqual(["mailgun-eu"])
  })

  it("SendGrid gets the sender as { email, name }", async () => {
    const c = cases.find((entry) => entry.id === "sendgrid")!
    const { browser } = setup(c, explicit(c))
    const address = newAddress()
    await requestLink(browser, "sendgrid", address)
    expect(mailsTo(address)[0]!.fields.from).toEqual({
      email: "no-reply@mg.example.com",
      name: "Example",
    })
  })

  it("reads each service's error shape", () => {
    expect(reasonOf({ statusCode: 422, name: "validation_error", message: "Bad" }, "")).toBe(
      "validation_error: Bad",
    )
    expect(reasonOf({ ErrorCode: 406, Message: "Inactive" }, "")).toBe("406: Inactive")
    expect(reasonOf({ errors: [{ field: "from", message: "x" }, { message: "y" }] }, "")).toBe(
      "from: x: y",
    )
    expect(reasonOf({ statusCode: 401, error: "Unauthorized", message: "Bad token" }, "")).toBe(
      "Bad token: Unauthorized",
    )
    expect(reasonOf(undefined, "  Forbidden\n")).toBe("Forbidden")
  })

  it("parses senders with and without a display name", () => {
    expect(parseMailbox('"Example, Inc." <a@example.com>')).toEqual({
      email: "a@example.com",
      name: "Example, Inc.",
    })
    expect(parseMailbox("a@example.com")).toEqual({ email: "a@example.com" })
    expect(parseMailbox("Example")).toBeUndefined()
  })

  it("treats a 200 that says it was not sent as a failure (Postmark ErrorCode, Loops success)", async () => {
    const errors: Error[] = []
    const answering = (json: unknown) => async () => Response.json(json)
    for (const [provider, json] of [
      [
        Postmark({
          apiKey: KEY,
          from: FROM,
          [customFetch]: answering({ ErrorCode: 300, Message: "Invalid email request" }),
        }),
        "300: Invalid email request",
      ],
      [
        Loops({
          apiKey: KEY,
          transactionalId: "tx",
          [customFetch]: answering({ success: false, message: "Nope" }),
        }),
        "Nope",
      ],
    ] as const) {
      const config = testConfig({
        adapter: memoryAdapter(),
        providers: [provider],
        logger: { error: (error) => errors.push(error), warn() {}, debug() {} },
      })
      setEnvDefaults({}, config)
      const browser = new Browser(config)
      const response = await requestLink(browser, provider.id, newAddress())
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
        "EmailSignin",
      )
      expect((errors.at(-1) as AuthError).cause?.err?.message).toContain(json)
    }
  })

  it("reports an unreachable service as EmailSignin", async () => {
    const errors: Error[] = []
    const config = testConfig({
      adapter: memoryAdapter(),
      providers: [
        Resend({
          apiKey: KEY,
          from: FROM,
          [customFetch]: () => fetch("http://127.0.0.1:9/emails", { method: "POST" }),
        }),
      ],
      logger: { error: (error) => errors.push(error), warn() {}, debug() {} },
    })
    setEnvDefaults({}, config)
    const response = await requestLink(new Browser(config), "resend", newAddress())
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
    expect((errors[0] as AuthError).cause?.err?.message).toMatch(/^Resend could not be reached/)
  })
})
