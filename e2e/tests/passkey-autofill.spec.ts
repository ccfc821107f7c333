// Passkeys in the browser's autofill (WebAuthn conditional mediation) next to a passkey button,
// in Chromium with its virtual authenticator: `<SignIn provider="passkey">` on the demo's
// /signin/passkey, the built-in sign-in page, and `signIn("passkey", { conditional: true })` of
// `@latch/sveltekit/webauthn` on the demo's /signin.
//
// Chromium's virtual authenticator answers a conditional request at once, as a user picking the
// suggestion would: the first test signs in through the autofill for real. The others need the
// autofill request to stay pending, as it does until the user picks something: the page's
// `navigator.credentials.get` is wrapped (`observe` below) to record each request — its
// mediation, its options, whether the request before it was aborted — and to hold the
// conditional ones until they are aborted. The button's request goes to the real authenticator.
import { expect, test, type Page } from "@playwright/test"
import { addAuthenticator, ALICE, sessionCookie, signInByApi } from "./support"

interface Call {
  kind: "get" | "abort" | "options-fetch"
  mediation?: string
  /** At a `get`: whether every earlier request was aborted by then. */
  earlierAborted?: boolean
  /** At a `get`: whether the page had a field whose autocomplete is "username webauthn". */
  autofillField?: boolean
  rpId?: string
  allowCredentials?: number
  challenge?: boolean
}

interface Holds {
  /** Keep conditional requests pending until aborted (the user has not picked anything). */
  conditional?: boolean
  /** Keep `isConditionalMediationAvailable` unanswered until `__releaseAvailability()`. */
  availability?: boolean
  /** Keep the button's (modal) request waiting until `__releaseModal()`. */
  modal?: boolean
  /** Fail the button's request with this DOMException name (the user cancelled). */
  failModal?: string
}

/** Records the page's WebAuthn requests (across navigations) into the returned list. */
async function observe(page: Page, holds: Holds = {}): Promise<Call[]> {
  const calls: Call[] = []
  await page.exposeFunction("__latchRecord", (call: Call) => calls.push(call))
  await page.addInitScript((holds: Holds) => {
    const w = window as any
    const record = (call: object) => w.__latchRecord(call)
    const released = (name: string) =>
      new Promise<void>((resolve) => {
        w[name] = resolve
      })
    const availability = holds.availability ? released("__releaseAvailability") : null
    const modal = holds.modal ? released("__releaseModal") : null
    if (availability && window.PublicKeyCredential) {
      const real = PublicKeyCredential.isConditionalMediationAvailable
      Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
        value: () => availability.then(() => real.call(PublicKeyCredential)),
      })
    }
    const realFetch = window.fetch.bind(window)
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).includes("/webauthn-options/"))
        record({ kind: "options-fetch" })
      return realFetch(input, init)
    }
    const signals: AbortSignal[] = []
    const real = navigator.credentials.get.bind(navigator.credentials)
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      const mediation = options?.mediation ?? "optional"
      const signal = options?.signal
      const publicKey = options?.publicKey
      record({
        kind: "get",
        mediation,
        earlierAborted: signals.every((earlier) => earlier.aborted),
        autofillField: !!document.querySelector('input[autocomplete="username webauthn"]'),
        rpId: publicKey?.rpId,
        allowCredentials: publicKey?.allowCredentials?.length ?? 0,
        challenge: ((publicKey?.challenge as ArrayBuffer | undefined)?.byteLength ?? 0) > 0,
      })
      if (signal) {
        signals.push(signal)
        signal.addEventListener("abort", () => record({ kind: "abort", mediation }))
      }
      if (mediation === "conditional" && holds.conditional) {
        return new Promise((_, reject) =>
          signal?.addEventListener("abort", () => reject(signal.reason)),
        )
      }
      if (mediation !== "conditional" && holds.failModal) {
        return Promise.reject(new DOMException("The user cancelled.", holds.failModal))
      }
      if (mediation !== "conditional" && modal) return modal.then(() => real(options))
      return real(options)
    }
  }, holds)
  return calls
}

/** Fails the test on any error the page did not handle (an unhandled rejection among them). */
function noPageErrors(page: Page): Error[] {
  const errors: Error[] = []
  page.on("pageerror", (error) => errors.push(error))
  return errors
}

/** Signs in with a password, adds a passkey on /profile, and signs out. */
async function registerPasskey(page: Page) {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  const listed = page.getByTestId("passkeys").getByRole("listitem")
  await expect(page.getByTestId("add-passkey")).toBeEnabled()
  const before = await listed.count()
  await page.getByTestId("add-passkey").click()
  await expect(listed).toHaveCount(before + 1)
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }),
  ).toBeVisible()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

const gets = (calls: Call[]) => calls.filter((call) => call.kind === "get")
/** Lets the page run what it queued (promise callbacks, a fetch started from them). */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)))

test.describe('<SignIn provider="passkey">', () => {
  test("signs in through the username field's autofill", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page)
    await registerPasskey(page)
    calls.length = 0

    await page.goto("/signin/passkey?callbackUrl=%2Fprofile")
    await expect(page).toHaveURL("/profile")
    await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)
    // One conditional request, made once the field was on the page, for any of the site's
    // passkeys (no list: the browser offers the discoverable ones).
    expect(gets(calls)).toEqual([
      {
        kind: "get",
        mediation: "conditional",
        earlierAborted: true,
        autofillField: true,
        rpId: "localhost",
        allowCredentials: 0,
        challenge: true,
      },
    ])
    expect(errors).toEqual([])
  })

  test("the button aborts the pending autofill first, then signs in", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true })
    await registerPasskey(page)
    calls.length = 0

    await page.goto("/signin/passkey?callbackUrl=%2Fprofile")
    const form = page.getByTestId("passkey-form")
    // The field the component adds where the browser has passkey autofill.
    await expect(form.getByLabel("Username")).toHaveAttribute("autocomplete", "username webauthn")
    await expect.poll(() => gets(calls).length).toBe(1)
    await form.getByRole("button", { name: "Sign in with a passkey" }).click()
    await expect(page).toHaveURL("/profile")
    await expect(page.getByTestId("profile-name")).toHaveText(ALICE.name)
    expect(calls.filter((call) => call.kind !== "options-fetch")).toEqual([
      expect.objectContaining({ kind: "get", mediation: "conditional" }),
      { kind: "abort", mediation: "conditional" },
      expect.objectContaining({ kind: "get", mediation: "optional", earlierAborted: true }),
    ])
    expect(errors).toEqual([])
  })

  test("a click while the autofill is being set up: the autofill never starts", async ({
    page,
  }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true, availability: true, modal: true })
    await registerPasskey(page)
    calls.length = 0

    await page.goto("/signin/passkey?callbackUrl=%2Fprofile")
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await expect.poll(() => gets(calls).length).toBe(1)
    // The browser now says it has autofill: the button's ceremony runs, so none is started.
    await page.evaluate(() => (window as any).__releaseAvailability())
    await settle(page)
    await page.evaluate(() => (window as any).__releaseModal())
    await expect(page).toHaveURL("/profile")
    expect(calls.map((call) => call.kind + (call.mediation ? ` ${call.mediation}` : ""))).toEqual([
      "options-fetch",
      "get optional",
    ])
    expect(errors).toEqual([])
  })

  test("a cancelled passkey is said, and the autofill is offered again", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true, failModal: "NotAllowedError" })
    await page.goto("/signin/passkey")
    await expect.poll(() => gets(calls).length).toBe(1)
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await expect(page.getByTestId("passkey-form-error")).toHaveText(
      /No passkey was used\.\s*\(NotAllowedError\)/,
    )
    await expect
      .poll(() => gets(calls).map((call) => call.mediation))
      .toEqual(["conditional", "optional", "conditional"])
    expect(await sessionCookie(page.context())).toBeUndefined()
    expect(errors).toEqual([])
  })

  test("leaving the page aborts the pending autofill, with no error", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true })
    await page.goto("/signin/passkey")
    await expect.poll(() => gets(calls).length).toBe(1)
    // A client-side navigation: the component unmounts, the page stays.
    await page.getByTestId("back-to-signin").click()
    await expect(page).toHaveURL("/signin")
    await expect
      .poll(() => calls.filter((call) => call.kind === "abort").map((call) => call.mediation))
      .toContain("conditional")
    expect(errors).toEqual([])
  })

  test("without passkey autofill in the browser: the button alone, which signs in", async ({
    page,
  }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    await page.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
        value: async () => false,
      })
    })
    const calls = await observe(page)
    await registerPasskey(page)
    calls.length = 0
    await page.goto("/signin/passkey?callbackUrl=%2Fprofile")
    const form = page.getByTestId("passkey-form")
    await form.getByRole("button", { name: "Sign in with a passkey" }).click()
    await expect(page).toHaveURL("/profile")
    expect(gets(calls).map((call) => [call.mediation, call.autofillField])).toEqual([
      ["optional", false],
    ])
    expect(errors).toEqual([])
  })
})

test.describe("the built-in sign-in page", () => {
  test("its button aborts the pending autofill first, then signs in", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true })
    await registerPasskey(page)
    calls.length = 0
    await page.goto("/auth/signin?callbackUrl=%2Fprofile")
    await expect.poll(() => gets(calls).length).toBe(1)
    await page.getByRole("button", { name: "Sign in with Passkey" }).click()
    await expect(page).toHaveURL("/profile")
    expect(calls.filter((call) => call.kind !== "options-fetch")).toEqual([
      expect.objectContaining({ kind: "get", mediation: "conditional", autofillField: true }),
      { kind: "abort", mediation: "conditional" },
      expect.objectContaining({ kind: "get", mediation: "optional", earlierAborted: true }),
    ])
    expect(errors).toEqual([])
  })

  test("a click while it sets up the autofill: the autofill never starts", async ({ page }) => {
    const errors = noPageErrors(page)
    await addAuthenticator(page)
    const calls = await observe(page, { conditional: true, availability: true, modal: true })
    await registerPasskey(page)
    calls.length = 0
    await page.goto("/auth/signin?callbackUrl=%2Fprofile")
    await page.getByRole("button", { name: "Sign in with Passkey" }).click()
    await expect.poll(() => gets(calls).length).toBe(1)
    await page.evaluate(() => (window as any).__releaseAvailability())
    await settle(page)
    await page.evaluate(() => (window as any).__releaseModal())
    await expect(page).toHaveURL("/profile")
    expect(calls.map((call) => call.kind + (call.mediation ? ` ${call.mediation}` : ""))).toEqual([
      "options-fetch",
      "get optional",
    ])
    expect(errors).toEqual([])
  })
})

test('signIn("passkey", { conditional: true }) gives way to the button\'s ceremony, options request included', async ({
  page,
}) => {
  const errors = noPageErrors(page)
  await addAuthenticator(page)
  const calls = await observe(page, { conditional: true, modal: true })
  await registerPasskey(page)
  calls.length = 0
  // The demo's /signin starts the autofill with the helper on load; its options are held back
  // until the button's ceremony has asked the browser.
  let releaseOptions = () => {}
  const held = new Promise<void>((resolve) => (releaseOptions = resolve))
  let first = true
  await page.route("**/auth/webauthn-options/**", async (route) => {
    if (first) {
      first = false
      await held
    }
    // Aborted by the page meanwhile: nothing to continue.
    await route.continue().catch(() => {})
  })
  const failed: string[] = []
  page.on("requestfailed", (request) => {
    if (request.url().includes("/webauthn-options/"))
      failed.push(request.failure()?.errorText ?? "")
  })
  await page.goto("/signin?callbackUrl=%2Fprofile")
  await expect.poll(() => calls.filter((call) => call.kind === "options-fetch").length).toBe(1)
  await page.getByTestId("passkey-signin").click()
  await expect.poll(() => gets(calls).length).toBe(1)
  // The autofill's options request was aborted when the button's ceremony started: a late answer
  // would replace the challenge cookie of the button's ceremony, whose passkey would be refused.
  await expect.poll(() => failed).toEqual(["net::ERR_ABORTED"])
  releaseOptions()
  await settle(page)
  await page.evaluate(() => (window as any).__releaseModal())
  await expect(page).toHaveURL("/profile")
  expect(gets(calls).map((call) => call.mediation)).toEqual(["optional"])
  expect(errors).toEqual([])
})
