// Attacks on the demo over HTTP, each as the attacker's requests and the safe outcome, with the
// mail read from the demo's real SMTP sink (/dev/mailbox).
import { expect, test, type Page } from "@playwright/test"
import { ALICE, pressLinkButton, signInByApi } from "./support"

/** An address no other test (or project) uses. */
const newAddress = (who: string) =>
  `${who}-${test.info().project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@evil.test`

/** The demo's own origin, as the browser knows it. */
const demoOrigin = () => new URL(test.info().project.use.baseURL ?? "").origin

/** The link of the newest mail to `address` once it has `count` mails (the page lists newest first). */
async function linkTo(
  page: Page,
  address: string,
  count = 1,
): Promise<{ subject: string; href: string }> {
  await page.goto("/dev/mailbox")
  const mail = page.getByRole("article", { name: `Mail to ${address}` })
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click()
    await expect(mail).toHaveCount(count, { timeout: 1_000 })
  }).toPass({ timeout: 10_000 })
  const newest = mail.first()
  return {
    subject: (await newest.getByRole("strong").textContent()) ?? "",
    href: (await newest.getByTestId("mail-link").first().getAttribute("href")) ?? "",
  }
}

test("a forged X-Forwarded-Host does not move the mailed sign-in link", async ({
  page,
  request,
}) => {
  const address = newAddress("alice")
  // The attacker's one request: a genuine sign-in mail for the victim, with a forged host.
  const response = await request.post("/auth/signin/nodemailer", {
    headers: {
      origin: demoOrigin(),
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
      forwarded: "host=evil.example;proto=https",
      "x-auth-return-redirect": "1",
    },
    form: { email: address },
  })
  expect(response.status()).toBe(200)
  const { url } = (await response.json()) as { url: string }
  expect(new URL(url).origin).toBe(demoOrigin())

  const mail = await linkTo(page, address)
  expect(mail.subject).toBe(`Sign in to ${new URL(demoOrigin()).host}`)
  expect(new URL(mail.href).origin).toBe(demoOrigin())
  expect(mail.href).not.toContain("evil.example")
})

test("opening a stranger's magic link while signed in does not attach their address", async ({
  page,
  browser,
  request,
}) => {
  // The attacker asks for a link for an address of their own…
  const mallory = newAddress("mallory")
  const asked = await request.post("/auth/signin/nodemailer", {
    headers: { origin: demoOrigin(), "x-auth-return-redirect": "1" },
    form: { email: mallory },
  })
  expect(asked.status()).toBe(200)
  const { href } = await linkTo(page, mallory)

  // …and gets signed-in Alice to open it and press its page's button (a top-level navigation and
  // a same-site form post carry her cookie).
  await signInByApi(page, ALICE)
  await page.goto(href)
  await pressLinkButton(page)
  await expect(page).toHaveURL(/error=AccountNotLinked/)
  await page.goto("/")
  await expect(page.getByTestId("header-user")).toHaveText(ALICE.name)

  // Later the attacker signs in with a fresh link for the same address, in their own browser:
  // they get an account of their own, never Alice's.
  const attacker = await browser.newContext()
  const attackerPage = await attacker.newPage()
  const again = await attackerPage.request.post("/auth/signin/nodemailer", {
    headers: { origin: demoOrigin(), "x-auth-return-redirect": "1" },
    form: { email: mallory },
  })
  expect(again.status()).toBe(200)
  const fresh = await linkTo(attackerPage, mallory, 2)
  expect(fresh.href).not.toBe(href)
  await attackerPage.goto(fresh.href)
  await pressLinkButton(attackerPage)
  await expect(attackerPage).not.toHaveURL(/\/auth\/callback\//)
  await attackerPage.goto("/")
  await expect(attackerPage.getByTestId("header-user")).toHaveText(mallory)
  await attacker.close()
})

test("a form action posted a body that is not a form answers 400, not 500", async ({ page }) => {
  await signInByApi(page, ALICE)
  const origin = demoOrigin()
  for (const [path, headers, data] of [
    ["/signin", { "content-type": "text/plain" }, "username=alice&password=wonderland"],
    ["/signin", { "content-type": "multipart/form-data; boundary=x" }, "--x\r\nbroken"],
    ["/profile?/revoke", { "content-type": "text/plain" }, "id=1"],
    ["/profile?/revoke", { "content-type": "multipart/form-data; boundary=y" }, "--y\r\nbroken"],
  ] as const) {
    const response = await page.request.post(path, {
      headers: { ...headers, origin, accept: "text/html" },
      data,
      maxRedirects: 0,
    })
    expect(response.status(), `${path} ${headers["content-type"]}`).toBe(400)
    expect(await response.text()).not.toMatch(/at .*\.js:\d+|node_modules/)
  }
})

test("the error page shows only its own words and codes, whatever the query says", async ({
  page,
}) => {
  // The query of /error is anyone's to write: a link in a phishing mail can carry any value.
  let dialogs = 0
  page.on("dialog", (dialog) => {
    dialogs++
    void dialog.dismiss()
  })
  const hostile = [
    { error: "<script>alert(1)</script>", code: null },
    { error: "OAuthCallbackError", code: '"><img src=x onerror=alert(2)>' },
    { error: "__proto__", code: "access_denied" },
    { error: "toString", code: null },
    { error: "Call support at +1 555 0100 and give them your password", code: null },
  ]
  for (const { error, code } of hostile) {
    const query = new URLSearchParams({ error, ...(code === null ? {} : { code }) })
    const response = await page.goto(`/error?${query}`)
    expect(response?.status(), query.toString()).toBe(200)
    const shown = page.getByTestId("error-page")
    await expect(shown).toBeVisible()
    const text = (await shown.textContent()) ?? ""
    // Nothing typed into the query is printed, not even escaped: a known code only as itself.
    if (error !== "OAuthCallbackError") expect(text).not.toContain(error)
    if (code !== null) expect(text).not.toContain(code)
    await expect(page.locator("img[src=x]")).toHaveCount(0)
  }
  // A known code with a value the page does not know: its words, its own code, not the value.
  await page.goto(
    `/error?${new URLSearchParams({ error: "OAuthCallbackError", code: "<b>x</b>" })}`,
  )
  await expect(page.getByTestId("error-code")).toHaveText("OAuthCallbackError")
  expect(dialogs).toBe(0)
})
