// What the check does against each deployment, in order. A step whose prerequisite failed is
// not run (shown as "·", and counted as a failure).
import { client } from "./flow.mjs"

/** The demo's Credentials user (src/lib/server/users.ts). */
const ALICE = { username: "alice", password: "wonderland", name: "Alice Liddell" }
/** The account seeded with a hash made by Node (SEED_PASSWORD_HASH), in src/auth.ts. */
export const SEED = { email: "seed@example.com", name: "Seeded Account" }

/** A password no policy refuses: long, random, unlike the address. */
function randomPassword() {
  return `pw-${crypto.randomUUID()}`
}

/**
 * The steps, each `{ name, needs?, run(state) }`; `state` carries the deployment's `url`, the
 * seeded account's password, and what earlier steps leave for later ones.
 */
export const steps = [
  {
    name: "static",
    async run({ url }) {
      const { expect, request } = client(url)
      await expect(
        await request("/robots.txt"),
        async (r) => r.status === 200 && (await r.text()).includes("Disallow: /protected"),
        "GET /robots.txt (a static asset): expected 200 with the file",
      )
    },
  },
  {
    name: "csrf",
    async run(state) {
      state.alice = client(state.url)
      state.csrfToken = await state.alice.csrfToken()
    },
  },
  {
    name: "credentials",
    needs: "csrf",
    async run({ url, alice, csrfToken }) {
      const response = await alice.request("/auth/callback/credentials", {
        method: "POST",
        form: { csrfToken, ...ALICE, callbackUrl: `${url}/protected` },
      })
      await alice.redirectTo(response, [302], "/protected", "POST /auth/callback/credentials")
    },
  },
  {
    name: "protected",
    needs: "credentials",
    run: ({ alice }) => alice.seesProtected(ALICE.name),
  },
  {
    name: "sign-out",
    needs: "protected",
    async run({ alice }) {
      const response = await alice.request("/signout", { method: "POST", form: {} })
      await alice.redirectTo(response, [303], "/", "POST /signout (form action)")
      const after = await alice.request("/protected")
      await alice.redirectTo(after, [303], "/signin", "GET /protected after sign-out")
    },
  },
  {
    name: "sign-up",
    async run(state) {
      const user = client(state.url)
      state.account = {
        email: `user-${crypto.randomUUID()}@example.com`,
        password: randomPassword(),
      }
      const response = await user.request("/signup", {
        method: "POST",
        form: { ...state.account, redirectTo: "/protected" },
      })
      await user.redirectTo(response, [303], "/protected", "POST /signup (form action)")
      await user.seesProtected(state.account.email)
    },
  },
  {
    name: "password",
    needs: "sign-up",
    async run({ url, account }) {
      const user = client(url)
      const form = { providerId: "password", email: account.email, redirectTo: "/protected" }
      const wrong = await user.request("/signin", {
        method: "POST",
        form: { ...form, password: `${account.password}-wrong` },
      })
      await user.expect(
        wrong,
        async (r) => r.status === 400 && (await r.text()).includes("Sign-in refused: credentials"),
        "POST /signin with a wrong password: expected 400 with code credentials",
      )
      const right = await user.request("/signin", {
        method: "POST",
        form: { ...form, password: account.password },
      })
      await user.redirectTo(right, [303], "/protected", "POST /signin (Password, form action)")
      await user.seesProtected(account.email)
    },
  },
  {
    name: "node hash",
    async run({ url, seedPassword }) {
      const user = client(url)
      const csrfToken = await user.csrfToken()
      const response = await user.request("/auth/callback/password", {
        method: "POST",
        form: {
          csrfToken,
          email: SEED.email,
          password: seedPassword,
          callbackUrl: `${url}/protected`,
        },
      })
      await user.redirectTo(response, [302], "/protected", "POST /auth/callback/password")
      await user.seesProtected(SEED.name)
    },
  },
]

/**
 * Against a second server of the same deployment, started with a 12-character AUTH_SECRET: a
 * built app is production on every runtime (a Worker has no NODE_ENV), so Latch refuses the
 * secret and a sign-in ends on the error page, never signed in and never a 500 page.
 */
export const WEAK_SECRET = "short-secret"
export async function weakSecretRefused({ url }) {
  const user = client(url)
  const response = await user.request("/signin", {
    method: "POST",
    form: { providerId: "credentials", ...ALICE, redirectTo: "/protected" },
  })
  await user.expect(
    response,
    (r) =>
      r.status === 303 &&
      new URL(r.headers.get("location") ?? "", url).searchParams.get("error") === "Configuration",
    "POST /signin with a 12-character AUTH_SECRET: expected 303 → the error page, error=Configuration",
  )
}

/** Runs the steps against one deployment; returns `{ [step]: { ok, skipped?, error? } }`. */
export async function runSteps(state) {
  const results = {}
  for (const step of steps) {
    if (step.needs && !results[step.needs].ok) {
      results[step.name] = { ok: false, skipped: true, error: `not run: ${step.needs} failed` }
      continue
    }
    try {
      await step.run(state)
      results[step.name] = { ok: true }
    } catch (error) {
      results[step.name] = {
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }
    }
  }
  return results
}
