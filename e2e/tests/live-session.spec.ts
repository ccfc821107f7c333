// The live session (`useSession()` of @latch/sveltekit/session) in the demo's header, home and
// profile: two pages of one browser follow each other without a reload, and an open tab learns
// of a sign-out from another device when it regains focus. Then the remote functions page:
// sign-in and sign-out as remote forms (with and without JavaScript), and a guarded query.
import { expect, test, type Page } from "@playwright/test"
import { ALICE, BOB, screenshot, sessionCookie, signInByApi } from "./support"

declare global {
  interface Window {
    __notReloaded?: boolean
  }
}

/**
 * How soon another tab shows a change: at once (the tabs' channel; no page polls by default). A
 * second when the machine is idle; the bound leaves room for one busy with other work.
 */
const PUSHED = { timeout: 3_000 }

/** Marks the page, so that a test can tell it was never reloaded. */
async function mark(page: Page) {
  await page.evaluate(() => (window.__notReloaded = true))
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => window.__notReloaded), "the page was not reloaded").toBe(true)
}

/** The live session's throttle of refetches on focus (`focusThrottle`, 5 s by default). */
const FOCUS_THROTTLE = 5_000

test("signing out in one page shows the other signed out within a second, without a reload", async ({
  context,
}) => {
  const a = await context.newPage()
  await signInByApi(a, ALICE)
  const b = await context.newPage()
  await a.goto("/protected")
  await b.goto("/")
  await expect(b.getByTestId("user-name")).toHaveText(ALICE.name)
  await expect(b.getByTestId("header-user")).toHaveText(ALICE.name)
  await mark(b)

  await a.getByRole("button", { name: "Sign out" }).click()
  await expect(a.getByTestId("header-sign-in")).toBeVisible()
  expect(await sessionCookie(context)).toBeUndefined()

  await expect(b.getByTestId("signed-out")).toBeVisible(PUSHED)
  await expect(b.getByTestId("header-sign-in")).toBeVisible(PUSHED)
  await expect(b.getByTestId("header-user")).toHaveCount(0)
  await expectNotReloaded(b)
  await screenshot(b, "live-session-signed-out-elsewhere")

  // And back: signing in in B shows in A, which sits on the sign-in page's redirect target.
  await a.goto("/")
  await expect(a.getByTestId("signed-out")).toBeVisible()
  await mark(a)
  await b.goto("/signin")
  await b.getByTestId("signin-form").getByLabel("Username").fill(ALICE.username)
  await b.getByTestId("signin-form").getByLabel("Password").fill(ALICE.password)
  await b
    .getByTestId("signin-form")
    .getByRole("button", { name: /sign in/i })
    .click()
  await expect(b.getByTestId("header-user")).toHaveText(ALICE.name)
  await expect(a.getByTestId("user-name")).toHaveText(ALICE.name, PUSHED)
  await expectNotReloaded(a)
})

test("a name updated in one page shows in the other", async ({ context }) => {
  const a = await context.newPage()
  await signInByApi(a, BOB)
  const b = await context.newPage()
  await a.goto("/profile")
  await b.goto("/")
  await expect(b.getByTestId("header-user")).toHaveText(BOB.name)
  await mark(b)

  const save = async (name: string) => {
    await a.getByTestId("name-input").fill(name)
    await a.getByRole("button", { name: "Save" }).click()
    await expect(a.getByTestId("saved")).toBeVisible()
  }
  try {
    await save("Bob the Builder")
    await expect(a.getByTestId("profile-name")).toHaveText("Bob the Builder")
    await expect(a.getByTestId("header-user")).toHaveText("Bob the Builder")
    await expect(b.getByTestId("header-user")).toHaveText("Bob the Builder", PUSHED)
    await expect(b.getByTestId("user-name")).toHaveText("Bob the Builder")
    await expectNotReloaded(b)
  } finally {
    // With database sessions the name is stored: give it back for the other tests.
    await save(BOB.name)
    await expect(b.getByTestId("header-user")).toHaveText(BOB.name, PUSHED)
  }
})

test("a tab signed out from another device shows it when it regains focus", async ({
  context,
  browser,
}) => {
  const jwt = test.info().project.name === "jwt-sessions"
  const tab = await context.newPage()
  await signInByApi(tab, ALICE)
  await tab.goto("/")
  const loadedAt = Date.now()
  await expect(tab.getByTestId("header-user")).toHaveText(ALICE.name)
  await mark(tab)

  if (jwt) {
    // A JWT session cannot be ended from elsewhere (the server keeps no list of them); it ends
    // when its cookie goes, as when it expires.
    await context.clearCookies({ name: /^authjs\.session-token/ })
  } else {
    // Another device (another browser context) signs every other session out.
    const device = await browser.newContext()
    try {
      const other = await device.newPage()
      await signInByApi(other, ALICE)
      await other.goto("/profile")
      await other.getByRole("button", { name: "Sign out everywhere else" }).click()
      await expect(other.getByTestId("sessions-signed-out")).toBeVisible()
    } finally {
      await device.close()
    }
  }

  // Nothing tells the tab: it still shows what it last knew until it asks the server again.
  await tab.waitForTimeout(Math.max(0, loadedAt + FOCUS_THROTTLE + 200 - Date.now()))
  await expect(tab.getByTestId("header-user")).toHaveText(ALICE.name)
  // The user comes back to the tab: the browser fires `focus` on the window.
  await tab.bringToFront()
  await tab.evaluate(() => window.dispatchEvent(new Event("focus")))
  await expect(tab.getByTestId("signed-out")).toBeVisible(PUSHED)
  await expect(tab.getByTestId("header-sign-in")).toBeVisible()
  await expectNotReloaded(tab)
})

test("signing out in another tab takes the profile there to the sign-in page", async ({
  context,
}) => {
  const a = await context.newPage()
  await signInByApi(a, ALICE)
  const b = await context.newPage()
  await a.goto("/")
  await b.goto("/profile")
  await expect(b.getByTestId("profile-name")).toHaveText(ALICE.name)
  await expect(b.getByRole("button", { name: "Save" })).toBeVisible()

  await a.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(a.getByTestId("header-sign-in")).toBeVisible()

  // The profile's load runs again (it reads the session): no session, so to the sign-in page,
  // and none of the old user's name or controls stays on screen.
  await expect(b.getByTestId("header-sign-in")).toBeVisible(PUSHED)
  await expect(b).toHaveURL("/signin?callbackUrl=%2Fprofile")
  await expect(b.getByTestId("profile-name")).toHaveCount(0)
  await expect(b.getByRole("button", { name: "Save" })).toHaveCount(0)
})

test.describe("remote functions", () => {
  test("sign in and out with remote forms, and read a guarded query", async ({ page }) => {
    await page.goto("/remote")
    const form = page.locator("form", { has: page.getByRole("button", { name: /sign in/i }) })
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill("not-the-password")
    await form.getByRole("button").click()
    await expect(page.getByTestId("remote-error")).toHaveText("Wrong username or password.")
    expect(await sessionCookie(page.context())).toBeUndefined()

    await mark(page)
    const query = page.waitForRequest((request) => request.url().includes("/accountSummary"))
    // A remote form resets its fields after each submission.
    await form.getByLabel("Username").fill(ALICE.username)
    await form.getByLabel("Password").fill(ALICE.password)
    await form.getByRole("button").click()
    await expect(page.getByTestId("remote-summary")).toContainText(ALICE.name)
    await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
    await expectNotReloaded(page)
    await screenshot(page, "remote-functions")

    // The query's endpoint, called by anyone without a session: a 401 (SvelteKit carries a
    // remote function's error in the body of an HTTP 200, for its client to throw).
    const queryUrl = (await query).url()
    const anonymous = await page.context().browser()!.newContext()
    try {
      const response = await anonymous.request.get(queryUrl)
      const body = await response.text()
      expect(JSON.parse(body)).toMatchObject({ type: "error", status: 401 })
      expect(body).not.toContain(ALICE.name)
    } finally {
      await anonymous.close()
    }

    await page.getByRole("button", { name: "Sign out (remote form)" }).click()
    await expect(page.getByTestId("header-sign-in")).toBeVisible()
    expect(await sessionCookie(page.context())).toBeUndefined()
  })

  test("signing out while the query refreshes leaves no Svelte warning", async ({ page }) => {
    const warnings: string[] = []
    page.on("console", (message) => {
      if (message.text().includes("derived_inert")) warnings.push(message.text())
    })
    await signInByApi(page, ALICE)
    await page.goto("/remote")
    await expect(page.getByTestId("remote-summary")).toContainText(ALICE.name)
    // Signing out refreshes every query of the page. The query's answer comes late, and the
    // garbage collector runs meanwhile, so that SvelteKit lets go of the query (no part of the
    // page shows it any more) before its answer arrives.
    await page.route(/\/_app\/remote\//, async (route) => {
      if (route.request().method() === "GET") await new Promise((done) => setTimeout(done, 1_500))
      await route.continue()
    })
    const cdp = await page.context().newCDPSession(page)
    // (Should SvelteKit not refresh it, there is no answer to wait for.)
    const answered = page
      .waitForResponse(
        (response) =>
          /\/_app\/remote\//.test(response.url()) && response.request().method() === "GET",
        { timeout: 10_000 },
      )
      .catch(() => undefined)
    await page.getByRole("button", { name: "Sign out (remote form)" }).click()
    await expect(page.getByTestId("header-sign-in")).toBeVisible()
    await expect(page.getByRole("button", { name: "Sign in (remote form)" })).toBeVisible()
    for (let i = 0; i < 10; i++) await cdp.send("HeapProfiler.collectGarbage")
    await answered
    // The answer is handled once it has arrived: a round trip through the page after it.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))))
    expect(warnings).toEqual([])
  })

  test("a remote sign-in form posted from another site is refused", async ({ page, baseURL }) => {
    await page.goto("/remote")
    const action = await page
      .locator("form", { has: page.getByRole("button", { name: /sign in/i }) })
      .getAttribute("action")
    expect(action).toMatch(/remote=/)
    const response = await page.request.post(new URL(action!, `${baseURL}/remote`).href, {
      headers: { origin: "https://evil.example" },
      form: { providerId: "credentials", username: ALICE.username, password: ALICE.password },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(403)
    expect(await sessionCookie(page.context())).toBeUndefined()
  })

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false })

    test("the remote forms sign in and out", async ({ page }) => {
      await page.goto("/remote")
      const form = page.locator("form", { has: page.getByRole("button", { name: /sign in/i }) })
      await form.getByLabel("Username").fill(ALICE.username)
      await form.getByLabel("Password").fill(ALICE.password)
      await form.getByRole("button").click()
      await expect(page).toHaveURL(/\/remote$/)
      await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
      expect(await sessionCookie(page.context())).toBeDefined()

      await page.getByRole("button", { name: "Sign out (remote form)" }).click()
      await expect(page.getByTestId("header-sign-in")).toBeVisible()
      expect(await sessionCookie(page.context())).toBeUndefined()
    })

    test("signed in, the page says its query needs JavaScript rather than waiting forever", async ({
      page,
    }) => {
      await signInByApi(page, ALICE)
      await page.goto("/remote")
      await expect(page.getByTestId("remote-needs-javascript")).toContainText("needs JavaScript")
      await expect(page.getByText("Asking the server…")).toHaveCount(0)
      await expect(page.getByRole("button", { name: "Sign out (remote form)" })).toBeVisible()
    })

    test("a signed-in page renders the session from the server", async ({ page }) => {
      await signInByApi(page, ALICE)
      await page.goto("/")
      await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)
      await expect(page.getByTestId("user-name")).toHaveText(ALICE.name)
    })
  })
})
