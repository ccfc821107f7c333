/** Credentials sign-in with a JWT session, and with a database session. */
import Credentials from "@latch/core/providers/credentials"
import { Browser, check, expectRedirect } from "../browser.js"
import { baseConfig, PASSWORD, withUser } from "./config.js"

const credentials = (user: { id: string; email: string }) =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) =>
      username === user.email && password === PASSWORD ? user : null,
  })

export async function credentialsJwt(): Promise<string> {
  const user = { id: "u1", email: "alice@example.com", name: "Alice" }
  const browser = new Browser(baseConfig({ providers: [credentials(user)] }))
  const wrong = await browser.post("/auth/callback/credentials", {
    username: user.email,
    password: "wrong",
  })
  const refused = new URL(wrong.headers.get("location") ?? "", "http://x")
  check(
    refused.searchParams.get("error") === "CredentialsSignin",
    "a wrong password was not refused",
  )
  expectRedirect(
    await browser.post("/auth/callback/credentials", {
      username: user.email,
      password: PASSWORD,
      callbackUrl: "/home",
    }),
    "/home",
  )
  const token = browser.cookies.get("authjs.session-token")
  check(token?.split(".").length === 5, "the session cookie is not a JWE")
  check((await browser.session())?.user?.email === user.email, "the JWT session has no user")
  return "JWE session cookie read back"
}

export async function databaseSession(): Promise<string> {
  const { adapter, id } = await withUser("bob@example.com")
  const user = { id, email: "bob@example.com" }
  const browser = new Browser(
    baseConfig({ adapter, session: { strategy: "database" }, providers: [credentials(user)] }),
  )
  expectRedirect(
    await browser.post("/auth/callback/credentials", {
      username: user.email,
      password: PASSWORD,
      callbackUrl: "/home",
    }),
    "/home",
  )
  const stored = () => adapter.sessions.size
  check(stored() === 1, `${stored()} sessions stored, not 1`)
  check((await browser.session())?.user?.email === user.email, "the database session has no user")
  await browser.post("/auth/signout")
  check(stored() === 0, "sign-out left the session in the database")
  check((await browser.session()) === null, "still signed in after sign-out")
  return "stored, read, deleted at sign-out"
}
