/**
 * The attestation policy of a passkey provider, through `Auth` from the options to the callback:
 * the software authenticator attests with certificates made here (test/helpers/attestation.ts),
 * `@simplewebauthn/server` verifies the statements' signatures, and Latch judges the model and
 * the chain against the policy's own statements.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import type { WebAuthnUserConfig } from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { maker, none, packed, self, statement, type Maker } from "../helpers/attestation.js"
import { SoftAuthenticator, type Attester } from "../helpers/authenticator.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { ALICE, Browser, ORIGIN, SECRET } from "../helpers/request.js"

const KEY = "ee882879-721c-4913-9775-3dfcce97072a"
const OTHER = "cb69481e-8ff7-4039-93ec-0a2729a154a8"

function setup(passkey: WebAuthnUserConfig = {}) {
  const adapter = memoryAdapter()
  adapter.createUser!({ ...ALICE, emailVerified: null })
  const errors: unknown[] = []
  /** Why a ceremony was refused goes to the debug log (sign-in failures are the user's). */
  const debug: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    adapter,
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "alice" && password === "wonderland" ? ALICE : null,
      }),
      Passkey(passkey),
    ],
    logger: {
      error: (error) => errors.push(error),
      warn: () => {},
      debug: (message) => debug.push(message),
    },
  }
  return { adapter, config, errors, debug }
}

async function signedInAlice(config: AuthConfig): Promise<Browser> {
  const browser = new Browser(config)
  expect((await browser.signIn()).status).toBe(302)
  return browser
}

async function registrationOptions(browser: Browser) {
  const response = await browser.fetch("/auth/webauthn-options/passkey?action=register")
  return { response, body: (await response.json()) as { action: string; options: any } }
}

/** Alice adds a passkey made by `attester`'s authenticator; where she lands, and why. */
async function register(config: AuthConfig, attester?: Attester, browser?: Browser) {
  browser ??= await signedInAlice(config)
  const { body } = await registrationOptions(browser)
  expect(body.action).toBe("register")
  const authenticator = new SoftAuthenticator({ attester })
  const { credential, response } = authenticator.create(
    { challenge: body.options.challenge, origin: ORIGIN, rpId: "localhost" },
    body.options.user.id,
  )
  const csrfToken = await browser.csrfToken()
  const answer = await browser.fetch("/auth/callback/passkey", {
    form: {
      csrfToken,
      action: "register",
      data: JSON.stringify(response),
      callbackUrl: "/dashboard",
    },
  })
  expect(answer.status).toBe(302)
  const location = new URL(answer.headers.get("location")!)
  return {
    authenticator,
    credential,
    registered: location.href === `${ORIGIN}/dashboard`,
    error: location.searchParams.get("error"),
    code: location.searchParams.get("code"),
  }
}

/** The refusal a registration under a policy gets, with nothing stored. */
async function expectRefused(
  context: ReturnType<typeof setup>,
  attester: Attester | undefined,
  why: RegExp,
) {
  const result = await register(context.config, attester)
  expect(result).toMatchObject({
    registered: false,
    error: "WebAuthnVerificationError",
    code: "attestation",
  })
  expect(context.adapter.authenticators.size).toBe(0)
  expect(context.debug.at(-1)).toMatch(why)
  expect(context.errors).toEqual([])
}

async function configurationError(passkey: WebAuthnUserConfig): Promise<string> {
  const response = await Auth(new Request(`${ORIGIN}/auth/session`), setup(passkey).config)
  expect(response.status).toBe(500)
  return ((await response.json()) as { message: string }).message
}

describe("without a policy (the default)", () => {
  it("asks for no attestation and registers any authenticator, attested or not", async () => {
    const context = setup()
    const browser = await signedInAlice(context.config)
    const { body } = await registrationOptions(browser)
    expect(body.options.attestation).toBe("none")

    const unknownMaker = await maker(OTHER)
    for (const attester of [undefined, self(OTHER), packed(unknownMaker)]) {
      expect((await register(context.config, attester)).registered).toBe(true)
    }
    expect(context.adapter.authenticators.size).toBe(3)
  })
})

describe("a policy of models (aaguids)", () => {
  it("asks for direct attestation", async () => {
    const { config } = setup({ attestation: { aaguids: [KEY] } })
    const { body } = await registrationOptions(await signedInAlice(config))
    expect(body.options.attestation).toBe("direct")
  })

  it("registers an allowed model, with its AAGUID in any case", async () => {
    const context = setup({ attestation: { aaguids: [KEY.toUpperCase()] } })
    expect((await register(context.config, packed(await maker(KEY)))).registered).toBe(true)
    expect(context.adapter.authenticators.size).toBe(1)
  })

  it("refuses a model outside the list", async () => {
    const context = setup({ attestation: { aaguids: [KEY] } })
    await expectRefused(context, packed(await maker(OTHER)), /not in attestation\.aaguids/)
  })

  it("refuses an authenticator that sends no attestation, even one naming an allowed model", async () => {
    const context = setup({ attestation: { aaguids: [KEY] } })
    await expectRefused(context, none(KEY), /no attestation/)
    await expectRefused(context, undefined, /no attestation/)
  })
})

describe("a policy of metadata statements", () => {
  async function withMetadata(
    made: Maker,
    attestationTypes?: string[],
  ): Promise<ReturnType<typeof setup>> {
    return setup({ attestation: { metadata: [statement(made, attestationTypes)] } })
  }

  it("registers a model whose attestation chains to its statement's root", async () => {
    const made = await maker(KEY)
    const context = await withMetadata(made)
    expect((await register(context.config, packed(made))).registered).toBe(true)
    expect(context.adapter.authenticators.size).toBe(1)
  })

  it("follows an intermediate CA, and a chain that carries the root itself", async () => {
    const made = await maker(KEY, { intermediate: true })
    const context = await withMetadata(made)
    expect((await register(context.config, packed(made))).registered).toBe(true)
    expect((await register(context.config, packed(made, { withRoot: true }))).registered).toBe(true)
  })

  it("refuses a chain made by anyone else for the same model (a forged attestation)", async () => {
    const genuine = await maker(KEY)
    const forger = await maker(KEY, { name: "Forger" })
    const context = await withMetadata(genuine)
    await expectRefused(context, packed(forger), /does not lead to a root/)
  })

  it("refuses a forger's chain under a root of the same name, with or without that root", async () => {
    const genuine = await maker(KEY)
    const forger = await maker(KEY) // the same names, other keys
    expect(forger.root.subject).toBe(genuine.root.subject)
    const context = await withMetadata(genuine)
    await expectRefused(context, packed(forger), /does not lead to a root/)
    await expectRefused(context, packed(forger, { withRoot: true }), /does not lead to a root/)
  })

  it("refuses a self attestation when the statement requires a chain", async () => {
    const context = await withMetadata(await maker(KEY))
    await expectRefused(context, self(KEY), /self attestation without a certificate chain/)
  })

  it("accepts a self attestation from a model whose statement says it attests so", async () => {
    const context = await withMetadata(await maker(KEY), ["basic_surrogate"])
    expect((await register(context.config, self(KEY))).registered).toBe(true)
  })

  it("refuses no attestation, and a model without a statement", async () => {
    const context = await withMetadata(await maker(KEY))
    await expectRefused(context, none(KEY), /no attestation/)
    await expectRefused(context, packed(await maker(OTHER)), /No metadata statement/)
  })

  it("takes MDS BLOB entries, and refuses a model reported compromised", async () => {
    const made = await maker(KEY)
    const entry = (statusReports: { status: string }[]) => ({
      aaguid: KEY,
      metadataStatement: statement(made),
      statusReports,
    })
    const certified = setup({ attestation: { metadata: [entry([{ status: "FIDO_CERTIFIED" }])] } })
    expect((await register(certified.config, packed(made))).registered).toBe(true)

    const compromised = setup({
      attestation: {
        metadata: [entry([{ status: "FIDO_CERTIFIED" }, { status: "ATTESTATION_KEY_COMPROMISE" }])],
      },
    })
    await expectRefused(compromised, packed(made), /ATTESTATION_KEY_COMPROMISE/)
  })

  it("with aaguids too, both apply", async () => {
    const allowed = await maker(KEY)
    const other = await maker(OTHER)
    const context = setup({
      attestation: { aaguids: [KEY], metadata: [statement(allowed), statement(other)] },
    })
    expect((await register(context.config, packed(allowed))).registered).toBe(true)
    const refused = await register(context.config, packed(other))
    expect(refused.code).toBe("attestation")
    expect(context.adapter.authenticators.size).toBe(1)
  })

  it("keeps each configuration's statements to itself, in one process", async () => {
    const first = await maker(KEY, { name: "First" })
    const second = await maker(KEY, { name: "Second" })
    const a = await withMetadata(first)
    const b = await withMetadata(second)
    // Interleaved: neither configuration sees the other's root.
    expect((await register(a.config, packed(first))).registered).toBe(true)
    expect((await register(b.config, packed(first))).code).toBe("attestation")
    expect((await register(b.config, packed(second))).registered).toBe(true)
    expect((await register(a.config, packed(second))).code).toBe("attestation")
  })
})

describe("a provider written by hand", () => {
  it("with a policy, is a configuration error at its first registration, not a registration without the check", async () => {
    const made = await maker(KEY)
    const library = await import("@simplewebauthn/server")
    // Its own copy of the settings, without the loaders Passkey() attaches.
    const handMade = {
      ...Object.fromEntries(
        Object.entries(Passkey({ attestation: { metadata: [statement(made)] } })),
      ),
      simpleWebAuthn: {
        generateRegistrationOptions: library.generateRegistrationOptions,
        generateAuthenticationOptions: library.generateAuthenticationOptions,
        verifyRegistrationResponse: library.verifyRegistrationResponse,
        verifyAuthenticationResponse: library.verifyAuthenticationResponse,
      },
    }
    const context = setup()
    context.config.providers = [context.config.providers[0]!, handMade as never]
    const result = await register(context.config, packed(made))
    expect(result.registered).toBe(false)
    expect(result.error).toBe("Configuration")
    expect(context.adapter.authenticators.size).toBe(0)
    expect(String(context.errors.at(-1))).toMatch(/needs @simplewebauthn\/server\/helpers/)
  })
})

describe("credentials registered before the policy", () => {
  it("keep signing in: the policy judges new registrations only", async () => {
    const before = setup()
    const { authenticator, credential, registered } = await register(before.config)
    expect(registered).toBe(true)

    // The same database, now under a policy that this (unattested) passkey would not pass.
    const config: AuthConfig = {
      ...before.config,
      providers: [Passkey({ attestation: { aaguids: [KEY] } })],
    }
    const browser = new Browser(config)
    const options = await browser.fetch("/auth/webauthn-options/passkey?action=authenticate")
    const { options: challenge } = (await options.json()) as { options: { challenge: string } }
    const assertion = authenticator.get(credential, {
      challenge: challenge.challenge,
      origin: ORIGIN,
      rpId: "localhost",
    })
    const csrfToken = await browser.csrfToken()
    const answer = await browser.fetch("/auth/callback/passkey", {
      form: { csrfToken, action: "authenticate", data: JSON.stringify(assertion) },
    })
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/`)
    expect((await browser.session())?.user?.email).toBe(ALICE.email)
  })
})

describe("attackers", () => {
  it("a stolen session adds no passkey, even one the policy allows", async () => {
    const made = await maker(KEY)
    const context = setup({ attestation: { metadata: [statement(made)] } })
    const owner = await signedInAlice(context.config)
    // The thief copies the session cookie alone; the proof of the sign-in stays with the owner.
    const thief = new Browser(context.config)
    for (const [name, value] of owner.cookies) {
      if (name.endsWith("session-token")) thief.cookies.set(name, value)
    }
    const { response, body } = await registrationOptions(thief)
    expect(response.status).toBe(403)
    expect(body).toMatchObject({ error: "ReauthenticationRequired" })
    expect(context.adapter.authenticators.size).toBe(0)
  })

  it("a visitor who knows only the victim's address registers nothing", async () => {
    const made = await maker(KEY)
    const context = setup({ attestation: { metadata: [statement(made)] } })
    const stranger = new Browser(context.config)
    const response = await stranger.fetch(
      `/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(ALICE.email)}`,
    )
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "WebAuthnRegistrationRequiresSignIn" })
  })
})

describe("configuration", () => {
  it("refuses a malformed policy with a message that names the fix", async () => {
    const made = await maker(KEY)
    const good = statement(made)
    const cases: [WebAuthnUserConfig["attestation"], RegExp][] = [
      [{ aaguids: [] }, /non-empty list of AAGUIDs/],
      [{ aaguids: ["ee882879721c49139775"] }, /aaguids\[0\] is not an AAGUID/],
      [{ aaguids: ["00000000-0000-0000-0000-000000000000"] }, /names no model/],
      [{}, /needs aaguids, metadata or both/],
      [{ aaguid: [KEY] } as never, /unknown options: aaguid/],
      [{ metadata: [] }, /non-empty list of metadata statements/],
      [{ metadata: [{ ...good, aaguid: undefined }] } as never, /has no aaguid/],
      [
        { metadata: [{ ...good, attestationRootCertificates: [] }] },
        /no attestationRootCertificates/,
      ],
      [
        { metadata: [{ ...good, attestationRootCertificates: [made.root.toString("pem")] }] },
        /not a certificate in base64/,
      ],
      [{ metadata: [good, good] }, /two statements/],
      [{ aaguids: [OTHER], metadata: [good] }, /no statement in attestation\.metadata/],
    ]
    for (const [attestation, message] of cases) {
      expect(await configurationError({ attestation })).toMatch(message)
    }
    expect(
      await configurationError({
        attestation: { aaguids: [KEY] },
        registrationOptions: { attestationType: "none" },
      }),
    ).toMatch(/asks for no attestation/)
  })
})
