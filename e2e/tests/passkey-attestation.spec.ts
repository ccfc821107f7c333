// Passkey attestation policies in Chromium, with the Chrome DevTools Protocol's virtual
// authenticator. Asked for "direct" attestation, it answers a "packed" statement signed by a
// self-issued batch certificate ("C=US, O=Chromium, OU=Authenticator Attestation,
// CN=Batch Certificate") and names its model with the AAGUID below; asked for none, it sends
// none. So a policy of models can allow it, a policy of another model refuses it, and a policy
// of metadata statements refuses it, since no maker's root signed its certificate.
import { rootCertificates } from "node:tls"
import { expect, test, type Page } from "@playwright/test"
import type { PGlite } from "@electric-sql/pglite"
import { openDatabase, SITE_PASSWORD, SITE_USER, startSite, type Site } from "./attestation-site"
import { addAuthenticator } from "./support"

/** The AAGUID of Chromium's virtual authenticator. */
const VIRTUAL_AUTHENTICATOR = "01020304-0506-0708-0102-030405060708"

let db: PGlite
test.beforeAll(async () => {
  test.setTimeout(120_000)
  db = await openDatabase()
})
test.afterAll(async () => {
  await db?.close()
})

/** Signs in with the password, then adds a passkey as an app's own page would. */
async function addPasskey(page: Page, site: Site) {
  const { csrfToken } = (await (await page.request.get(`${site.origin}/auth/csrf`)).json()) as {
    csrfToken: string
  }
  const signedIn = await page.request.post(`${site.origin}/auth/callback/credentials`, {
    form: { csrfToken, username: SITE_USER.id, password: SITE_PASSWORD },
    maxRedirects: 0,
  })
  expect(signedIn.status()).toBe(302)
  await page.goto(`${site.origin}/`)
  const outcome = await page.evaluate(async () => {
    const bytes = (text: string) =>
      Uint8Array.from(
        atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)),
        (char) => char.charCodeAt(0),
      )
    const text = (buffer: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "")
    const answer = await fetch("/auth/webauthn-options/passkey?action=register")
    const { options } = (await answer.json()) as { options: any }
    const credential = (await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: bytes(options.challenge),
        user: { ...options.user, id: bytes(options.user.id) },
        excludeCredentials: (options.excludeCredentials ?? []).map((excluded: any) => ({
          ...excluded,
          id: bytes(excluded.id),
        })),
      },
    })) as PublicKeyCredential
    const response = credential.response as AuthenticatorAttestationResponse
    const data = {
      id: credential.id,
      rawId: text(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: text(response.clientDataJSON),
        attestationObject: text(response.attestationObject),
        transports: response.getTransports(),
      },
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment,
    }
    const { csrfToken } = (await (await fetch("/auth/csrf")).json()) as { csrfToken: string }
    const posted = await fetch("/auth/callback/passkey", {
      method: "POST",
      headers: { "X-Auth-Return-Redirect": "1" },
      body: new URLSearchParams({
        csrfToken,
        action: "register",
        data: JSON.stringify(data),
        callbackUrl: "/added",
      }),
    })
    const { url } = (await posted.json()) as { url: string }
    return { attestation: options.attestation as string, url }
  })
  return { attestation: outcome.attestation, url: new URL(outcome.url) }
}

async function withSite<T>(
  policy: Parameters<typeof startSite>[1],
  run: (site: Site) => Promise<T>,
): Promise<T> {
  const site = await startSite(db, policy)
  try {
    return await run(site)
  } finally {
    await site.close()
  }
}

/** A public root CA (from Node's list) standing for a maker's root in a metadata statement. */
function someoneElsesRoot(): string {
  return rootCertificates[0]!.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, "")
}

test("without a policy, no attestation is asked for and the virtual authenticator registers", async ({
  page,
}) => {
  await addAuthenticator(page)
  await withSite(undefined, async (site) => {
    const { attestation, url } = await addPasskey(page, site)
    expect(attestation).toBe("none")
    expect(url.href).toBe(`${site.origin}/added`)
  })
})

test("a policy that allows its model asks for direct attestation and registers it", async ({
  page,
}) => {
  const { cdp, id } = await addAuthenticator(page)
  await withSite({ aaguids: [VIRTUAL_AUTHENTICATOR] }, async (site) => {
    const { attestation, url } = await addPasskey(page, site)
    expect(attestation).toBe("direct")
    expect(url.href).toBe(`${site.origin}/added`)
  })
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: id })
  expect(credentials).toHaveLength(1)
})

test("a policy of another model refuses it with code=attestation", async ({ page }) => {
  await addAuthenticator(page)
  await withSite({ aaguids: ["ee882879-721c-4913-9775-3dfcce97072a"] }, async (site) => {
    const { attestation, url } = await addPasskey(page, site)
    expect(attestation).toBe("direct")
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(url.searchParams.get("code")).toBe("attestation")
  })
})

test("a metadata statement for its model refuses it: its certificate chains to no maker's root", async ({
  page,
}) => {
  await addAuthenticator(page)
  const statement = {
    aaguid: VIRTUAL_AUTHENTICATOR,
    description: "Chromium virtual authenticator",
    attestationTypes: ["basic_full"],
    attestationRootCertificates: [someoneElsesRoot()],
  }
  await withSite({ metadata: [statement] }, async (site) => {
    const { url } = await addPasskey(page, site)
    expect(url.searchParams.get("code")).toBe("attestation")
  })
})
