// Two instances of the demo, A and B, on one PostgreSQL database, each with its session cache on
// (scripts/demo-two.mjs, started by playwright.config.ts). One browser sends the same cookie to
// both, as to one site behind a load balancer. What is checked: each instance really answers a
// known session from its memory, and yet a session ended on one instance — by signing out, or
// from the profile's "Where you are signed in" — is refused by the other at once. (The first
// test is the one that shows the caches are on: with LATCH_DEMO_CACHE=off, it alone fails.)
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { join } from "node:path"
import { expect, test, type Browser, type Page } from "@playwright/test"
import { ALICE, BOB, screenshot, sessionCookie, signInByApi, TWO_INSTANCES } from "./support"

const { a: A, b: B } = TWO_INSTANCES
const INSTANCES = [A, B]

/** How long a change may take to reach the other instance: far more than it needs (a NOTIFY
 * crosses in milliseconds), far less than the cache's own expiry of entries (60 s). */
const EVICTED_WITHIN = 2_000

/** Runs SQL on the instances' database with psql (Debian's, beside the server). */
function sql(query: string): string {
  const psql = process.env.PG_BIN ? join(process.env.PG_BIN, "psql") : "psql"
  const args = [TWO_INSTANCES.database, "-v", "ON_ERROR_STOP=1", "-qAtc", query]
  const result = spawnSync(psql, args, { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`psql failed: ${result.error ?? result.stderr}`)
  return result.stdout.trim()
}

/** A string as an SQL literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

/** Where `origin`'s /protected sends the page's cookies: `null` when it shows the page. */
async function refusal(page: Page, origin: string): Promise<string | null> {
  const response = await page.request.get(`${origin}/protected`, { maxRedirects: 0 })
  if (response.status() === 200) return null
  return response.headers()["location"] ?? `status ${response.status()}`
}

/** Opens /protected on each instance (twice: the second answer comes from its cache). */
async function visitBoth(page: Page, name: string) {
  for (const origin of INSTANCES) {
    for (let visit = 0; visit < 2; visit++) {
      await page.goto(`${origin}/protected`)
      await expect(page.getByTestId("protected-user"), origin).toHaveText(name)
    }
  }
}

/** Waits until both instances refuse the page's session; records how long it took. */
async function expectRefusedByBoth(page: Page, since: number) {
  for (const origin of INSTANCES) {
    await expect
      .poll(() => refusal(page, origin), {
        message: `${origin} refuses the session`,
        timeout: EVICTED_WITHIN,
        intervals: [10, 25, 50, 100],
      })
      .toMatch(/^\/signin\?/)
  }
  test.info().annotations.push({
    type: "refused by both instances after",
    description: `${Date.now() - since} ms`,
  })
}

test("each instance answers a session it has read from its memory", async ({ page }) => {
  await signInByApi(page, ALICE)
  await visitBoth(page, ALICE.name)

  // Delete the session's row where no trigger sees it (replica mode skips them): no instance
  // hears of it, so an instance that still shows the page did not ask the database.
  const { value } = (await sessionCookie(page.context()))!
  const stored = [value, createHash("sha256").update(value).digest("hex")].map(literal)
  const deleted = sql(
    `set session_replication_role = replica;
     with gone as (delete from sessions where session_token in (${stored}) returning 1)
     select count(*) from gone`,
  )
  expect(deleted, "the session's row was deleted").toBe("1")
  for (const origin of INSTANCES) {
    await page.goto(`${origin}/protected`)
    await expect(page.getByTestId("protected-user"), `${origin} answers from its cache`).toHaveText(
      ALICE.name,
    )
  }

  // A change an administrator makes in SQL is heard by both: the user's sessions are evicted,
  // read again, and not found.
  const since = Date.now()
  sql(`update users set name = name where email = ${literal("alice@example.com")}`)
  await expectRefusedByBoth(page, since)
})

test("a session signed out on A is refused by B at once", async ({ page, context }) => {
  await signInByApi(page, ALICE, { origin: A })
  await visitBoth(page, ALICE.name)
  const cookie = (await sessionCookie(context))!

  await page.goto(`${A}/protected`)
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByTestId("signed-out")).toBeVisible()
  expect(await sessionCookie(context), "the browser dropped its cookie").toBeUndefined()

  // A copy of the cookie, kept elsewhere, is worth nothing now on either instance, although
  // each had the session in its cache.
  const since = Date.now()
  await context.addCookies([cookie])
  await expectRefusedByBoth(page, since)
})

const USER_AGENTS = {
  chrome:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
  firefox: "Mozilla/5.0 (X11; Linux x86_64; rv:143.0) Gecko/20100101 Firefox/143.0",
  safari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Safari/605.1.15",
}

/** A browser of its own (its own cookies), as the user's other devices. */
async function device(browser: Browser, userAgent: string, options: { javaScript?: boolean } = {}) {
  const context = await browser.newContext({
    baseURL: A,
    userAgent,
    javaScriptEnabled: options.javaScript ?? true,
  })
  return context.newPage()
}

test("the profile lists the user's devices and signs them out on both instances", async ({
  browser,
}) => {
  // Bob's earlier sessions (a retry's) go first, through the adapter's SQL function for admins.
  sql(
    `select latch_revoke_user_sessions(id) from users where email = ${literal("bob@example.com")}`,
  )
  // The laptop signs a device out with plain HTML forms; the phone, with JavaScript, signs out
  // everywhere else.
  const laptop = await device(browser, USER_AGENTS.chrome, { javaScript: false })
  const phone = await device(browser, USER_AGENTS.safari)
  const tablet = await device(browser, USER_AGENTS.firefox)
  await signInByApi(laptop, BOB, { origin: A })
  await signInByApi(phone, BOB, { origin: B })
  await signInByApi(tablet, BOB, { origin: A })
  await visitBoth(phone, BOB.name)
  await visitBoth(tablet, BOB.name)

  await laptop.goto(`${A}/profile`)
  const sessions = laptop.getByTestId("session")
  await expect(sessions).toHaveCount(3)
  const current = sessions.filter({ has: laptop.getByTestId("current-session") })
  await expect(current).toHaveCount(1)
  await expect(current).toContainText("Chrome on Linux")
  await expect(current.getByRole("button")).toHaveCount(0)
  await expect(sessions.filter({ hasText: "Safari on macOS" })).toHaveCount(1)
  await expect(sessions.filter({ hasText: "Firefox on Linux" })).toContainText("127.0.0.1")
  await screenshot(laptop, "profile-sessions")

  // One device, from instance A: the page comes back from the server with one row fewer.
  let since = Date.now()
  await sessions
    .filter({ hasText: "Firefox on Linux" })
    .getByRole("button", { name: "Sign out" })
    .click()
  await expect(laptop.getByTestId("sessions-signed-out")).toHaveText("Signed out of 1 session.")
  await expect(sessions).toHaveCount(2)
  await expectRefusedByBoth(tablet, since)
  for (const origin of INSTANCES) expect(await refusal(phone, origin), origin).toBeNull()

  // Every other device, from the phone on instance B: the list updates without a reload.
  await phone.goto(`${B}/profile`)
  const phoneSessions = phone.getByTestId("session")
  await expect(phoneSessions).toHaveCount(2)
  await expect(phoneSessions.first()).toContainText("this device")
  since = Date.now()
  await phone.getByRole("button", { name: "Sign out everywhere else" }).click()
  await expect(phone.getByTestId("sessions-signed-out")).toHaveText("Signed out of 1 session.")
  await expect(phoneSessions).toHaveCount(1)
  await expect(phone.getByRole("button", { name: "Sign out everywhere else" })).toHaveCount(0)
  await expect(phone).toHaveURL(`${B}/profile`)
  await expectRefusedByBoth(laptop, since)
  for (const origin of INSTANCES) expect(await refusal(phone, origin), origin).toBeNull()

  for (const page of [laptop, phone, tablet]) await page.context().close()
})

test("a session id of another user signs nobody out", async ({ browser }) => {
  const alice = await device(browser, USER_AGENTS.chrome)
  const bob = await device(browser, USER_AGENTS.firefox)
  await signInByApi(alice, ALICE, { origin: A })
  await signInByApi(bob, BOB, { origin: B })
  await visitBoth(bob, BOB.name)
  const bobsSessions = `select s.id from sessions s join users u on u.id = s.user_id
    where u.email = ${literal("bob@example.com")} order by s.id`
  const before = sql(bobsSessions).split("\n")

  // Alice's form, posted with Bob's session ids in it.
  for (const id of before) {
    const response = await alice.request.post(`${A}/profile?/revoke`, {
      headers: { origin: A, accept: "application/json" },
      form: { id },
    })
    expect(await response.json()).toMatchObject({ type: "failure", status: 404 })
  }
  expect(sql(bobsSessions).split("\n")).toEqual(before)
  for (const origin of INSTANCES) expect(await refusal(bob, origin), origin).toBeNull()
  for (const page of [alice, bob]) await page.context().close()
})
