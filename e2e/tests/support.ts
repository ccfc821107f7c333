// Shared helpers of the end-to-end tests: the demo's users, the session cookie, a fast sign-in
// through the HTTP API, named screenshots, and the button of the page a mailed link opens.
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect, test, type BrowserContext, type CDPSession, type Page } from "@playwright/test"

/** The demo's users (apps/demo/src/lib/users.ts). */
export const ALICE = { username: "alice", password: "wonderland", name: "Alice Liddell" }
export const BOB = { username: "bob", password: "canwefixit", name: "Bob Builder" }
/** A user of the demo's OpenID Provider only (apps/demo/op/server.mjs). */
export const CAROL = { username: "carol", name: "Carol Danvers" }

/**
 * Two instances of the demo on one PostgreSQL database, with their session caches on
 * (playwright.config.ts starts them with scripts/demo-two.mjs): ports E2E_PORT_BASE + 5 and + 6,
 * the database on + 7. Both are on `localhost`, where cookies ignore the port: one browser sends
 * the same session cookie to both, as it would to one site served by two servers.
 */
const TWO_BASE = Number(process.env.E2E_PORT_BASE ?? 4173)
export const TWO_INSTANCES = {
  a: `http://localhost:${TWO_BASE + 5}`,
  b: `http://localhost:${TWO_BASE + 6}`,
  database: `postgresql://latch@127.0.0.1:${TWO_BASE + 7}/latch_demo`,
}

/** The session cookie's name on an http origin (no `__Secure-` prefix). */
export const SESSION_COOKIE = "authjs.session-token"

/** Where named screenshots go, besides the test's output folder: `e2e/screenshots/`. */
const SCREENSHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url))

/** The session cookie of the context, or `undefined`. Chunked cookies count too. */
export async function sessionCookie(context: BrowserContext) {
  const cookies = await context.cookies()
  return cookies.find((cookie) => cookie.name.startsWith(SESSION_COOKIE))
}

/**
 * Signs in through the credentials callback, as the built-in page's form would: for tests whose
 * subject is not the sign-in itself. The cookies land in the page's context. `options.origin`:
 * the demo server to sign in at (the project's by default).
 */
export async function signInByApi(
  page: Page,
  user: { username: string; password: string },
  options: { origin?: string } = {},
) {
  const origin = options.origin ?? new URL(test.info().project.use.baseURL ?? "").origin
  const response = await page.request.post(`${origin}/auth/callback/credentials`, {
    // A same-origin form post, as a browser sends it (SvelteKit refuses form posts without it).
    headers: { origin },
    form: { username: user.username, password: user.password, callbackUrl: "/" },
    maxRedirects: 0,
  })
  expect(response.status(), "the credentials callback redirects").toBe(302)
  expect(response.headers()["location"]).not.toContain("error=")
  expect(await sessionCookie(page.context()), "a session cookie was set").toBeDefined()
}

/**
 * Saves a full-page screenshot as `name`.png in `e2e/screenshots/` and attaches it to the
 * test's report.
 */
export async function screenshot(page: Page, name: string) {
  // One folder per project (database and JWT sessions).
  const folder = `${SCREENSHOTS}${test.info().project.name}/`
  mkdirSync(folder, { recursive: true })
  // Fonts and images settle before the picture is taken.
  await page.evaluate(async () => {
    await document.fonts.ready
  })
  const body = await page.screenshot({ path: `${folder}${name}.png`, fullPage: true })
  await test.info().attach(name, { body, contentType: "image/png" })
}

/** The heading and the button of the page a mailed link opens, by what the link is for. */
const LINK_PAGE = {
  /** An email sign-in link (`/auth/callback/<provider>?token=…`). */
  signIn: "Continue signing in",
  /** A password sign-up's link (`/auth/verify-email/<provider>?token=…`). */
  confirmEmail: "Confirm your address",
}

/**
 * Presses the button of the page a mailed link opened. The link itself spends nothing (mail
 * scanners open every link in a mail); the button posts it back, and that signs in.
 */
export async function pressLinkButton(page: Page, purpose: keyof typeof LINK_PAGE = "signIn") {
  const name = LINK_PAGE[purpose]
  await expect(page.getByRole("heading", { name })).toBeVisible()
  await page.getByRole("button", { name }).click()
}

/** The `callbackUrl` of a URL's query, decoded. */
export function callbackUrlOf(url: string): string | null {
  return new URL(url).searchParams.get("callbackUrl")
}

/** A password account a test signs up. */
export interface Account {
  name: string
  email: string
  password: string
}

/** Whether this test's demo keeps sessions in its database (every project but jwt-sessions). */
export const databaseSessions = () => test.info().project.name !== "jwt-sessions"

/** A random suffix: addresses and passwords no other test (or project, or run) uses. */
export const random = () => Math.random().toString(36).slice(2, 10)

/** A new account's details (`prefix` names the spec in the address); its address is this test's alone. */
export function newAccount(prefix: string, name: string): Account {
  const project = test.info().project.name
  return {
    name: `${name} ${random()}`,
    email: `${prefix}-${project}-${Date.now()}-${random()}@example.com`,
    password: `correct horse ${random()}`,
  }
}

/** Gives the page a virtual platform authenticator that verifies its user without asking. */
export async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, id: authenticatorId }
}
