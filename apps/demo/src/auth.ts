// The Latch configuration of the demo. AUTH_SECRET comes from .env (written by `npm run demo`);
// the local OpenID Provider's issuer, id and secret (AUTH_LOCAL_OP_*) and the SMTP server of
// email sign-in (AUTH_EMAIL_SERVER) from the demo command.
// With an email provider configured, password accounts too (`Password()`): /signup,
// /reset-password, /new-password and /account/password are the demo's own pages for them.
// Sessions live in the database (PGlite, PostgreSQL with DATABASE_URL, or SQLite through Drizzle
// with LATCH_DEMO_DATABASE=sqlite) unless
// LATCH_DEMO_SESSION=jwt, which keeps them in an encrypted cookie. Database sessions are cached
// in each instance's memory (`session.cache`) unless LATCH_DEMO_CACHE=off: the adapter reports
// every change, so a session ended on one instance is refused at once by every other.
// Two-factor authentication (`twoFactor`) is on: /profile turns it on and off, /two-factor asks
// for the code.
// A change to how a user signs in (a passkey, a linked account, two-factor, removing a method)
// needs a sign-in of this browser within five minutes; past that, /confirm asks the user to
// confirm it is them first (`pages.reauthenticate`). Each change mails the owner a notice.
import { env } from "$env/dynamic/private"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "@latch/sveltekit"
import { customFetch } from "@latch/sveltekit"
import Cognito from "@latch/sveltekit/providers/cognito"
import Credentials from "@latch/sveltekit/providers/credentials"
import Nodemailer from "@latch/sveltekit/providers/nodemailer"
import Passkey from "@latch/sveltekit/providers/passkey"
import Password from "@latch/sveltekit/providers/password"
import Resend from "@latch/sveltekit/providers/resend"
import { PASSWORD_POLICY } from "$lib/password"
import { openDatabase } from "$lib/server/database"
import { verifyPassword } from "$lib/users"

async function createConfig(): Promise<SvelteKitAuthConfig> {
  const strategy = demoSessionStrategy()
  const adapter = await openDatabase(env)
  const providers: SvelteKitAuthConfig["providers"] = [
    // The demo's users (alice, bob): the built-in sign-in page's "Sign in with Username and
    // password", apart from the password accounts' "Email and password" below.
    Credentials({
      name: "Username and password",
      credentials: {
        username: { label: "Username", placeholder: "alice", autocomplete: "username" },
        password: { label: "Password", type: "password" },
      },
      authorize: ({ username, password }) => verifyPassword(username, password),
    }),
  ]
  // An OpenID Connect provider: issuer, client id and secret come from AUTH_LOCAL_OP_ISSUER,
  // AUTH_LOCAL_OP_ID and AUTH_LOCAL_OP_SECRET.
  if (env.AUTH_LOCAL_OP_ISSUER) {
    providers.unshift({
      id: "local-op",
      name: "Local OpenID Provider",
      type: "oidc",
      // The demo's own provider verifies its users' emails, so its alice may sign in to the
      // alice who signs in with a password. Never set this for a provider you do not trust so.
      allowDangerousEmailAccountLinking: true,
    })
  }
  // Amazon Cognito, when AUTH_COGNITO_ISSUER names a user pool (with AUTH_COGNITO_ID and
  // AUTH_COGNITO_SECRET). The e2e tests point it at the local OpenID Provider.
  if (env.AUTH_COGNITO_ISSUER) providers.splice(1, 0, Cognito)
  // Email sign-in links, sent over SMTP: AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM. `npm run demo`
  // points them at a local SMTP sink whose mails /dev/mailbox shows.
  // Both say on the "check your email" page when a limit on links stopped a mail, and link to
  // the development mailbox when there is one. The limits: 5 links per address in 10 minutes (the
  // default), and 100 per client address rather than 20, since everyone trying the demo on one
  // machine, and its end-to-end suite, ask from the same address.
  const emailOptions = {
    rateLimit: { sayWhenReached: true, perClient: 100 },
    ...(env.LATCH_DEMO_MAILBOX_DIR && { inboxUrl: "/dev/mailbox" }),
  }
  if (env.AUTH_EMAIL_SERVER) {
    providers.push(
      Nodemailer({
        name: "Email link",
        from: env.AUTH_EMAIL_FROM ?? "Latch demo <no-reply@latch.test>",
        ...emailOptions,
      }),
    )
  }
  // Email sign-in links sent through Resend's HTTP API, when AUTH_RESEND_KEY is set. With
  // LATCH_DEMO_RESEND_API (the e2e tests), the API calls go to the local mailbox's
  // Resend-speaking server instead of api.resend.com, so the mails show on /dev/mailbox.
  if (env.AUTH_RESEND_KEY) {
    const api = env.LATCH_DEMO_RESEND_API
    providers.push(
      Resend({
        name: "Email link (Resend)",
        from: env.AUTH_EMAIL_FROM ?? "Latch demo <no-reply@latch.test>",
        ...emailOptions,
        ...(api && {
          [customFetch]: (url: string, init: RequestInit) =>
            fetch(url.replace(/^https:\/\/api\.resend\.com(?=\/)/, api), init),
        }),
      }),
    )
  }
  // Password accounts: anyone signs up with an address and a password, proves the address by a
  // mailed link, and resets a forgotten password by another. The mails go through the first
  // email provider above that can send any message (Nodemailer, to the local mailbox): without
  // one, there is no password account. Named apart from the demo users' Credentials provider,
  // whose button says "Sign in with Username and password".
  const passwords = demoPasswordAccounts()
  if (passwords) providers.push(Password({ name: "Email and password", policy: PASSWORD_POLICY }))
  // Passkeys: a signed-in user adds one on /profile, then signs in with it alone. The relying
  // party is the site itself (its hostname, `localhost` in development: browsers refuse
  // passkeys on an IP address such as 127.0.0.1). With mail (the same condition as password
  // accounts), a visitor also creates an account with only a passkey (`signUp`): core's page
  // /auth/passkey-signup/passkey mails a code to prove the address, then makes the passkey.
  providers.push(Passkey({ relyingParty: { name: "Latch demo" }, signUp: passwords }))
  return {
    // The built-in pages (/auth/signin…) and the demo share one look: app.css uses the built-in
    // pages' design tokens, and this brand colour is its --brand.
    theme: { brandColor: "#4f46e5", colorScheme: "auto" },
    pages: {
      // The demo's error page, in its own look, with words for each error (src/routes/error).
      error: "/error",
      // Two-factor authentication's pages are the demo's own: a sign-in waiting for its code is
      // sent to /two-factor, and /settings/two-factor sets up an authenticator app.
      twoFactor: "/two-factor",
      twoFactorSetup: "/settings/two-factor",
      // "Confirm it is you": where a change to how the user signs in goes when this browser's
      // last sign-in is older than five minutes (`accountChanges.freshAge`, 300 s by default),
      // `?callbackUrl=` where the user was.
      reauthenticate: "/confirm",
      // The Password provider's forms are the demo's pages (src/routes): the reset link leads
      // to /new-password?token=…, the mails' "sign up" and "reset it" links to /signup and
      // /reset-password. The built-in sign-in page links to them too.
      ...(passwords && {
        signUp: "/signup",
        resetPassword: "/reset-password",
        newPassword: "/new-password",
        changePassword: "/account/password",
      }),
    },
    adapter,
    // Two-factor authentication: a user turns on a code from an authenticator app on /profile;
    // from then on every sign-in (password, email link, OpenID…) asks for it before the session
    // starts. A passkey that verified its user (the Passkey provider requires it) is two factors
    // by itself and asks none. The adapter stores the secrets, encrypted, and the recovery codes.
    twoFactor: { issuer: "Latch demo" },
    // The cache needs the adapter's `watchSessions` (PostgreSQL LISTEN/NOTIFY, PGlite's own
    // notifications, or on SQLite the Drizzle adapter's notices of its own writes, right while
    // one process writes the file, as the demo does); with JWT sessions there is nothing to cache.
    session: { strategy, cache: strategy === "database" && env.LATCH_DEMO_CACHE !== "off" },
    experimental: { enableWebAuthn: true },
    providers,
    callbacks: {
      jwt({ token, trigger, session }) {
        // updateSession({ name }) from the profile page: validate what the client sent.
        if (trigger === "update" && typeof session?.name === "string") {
          const name = session.name.trim().slice(0, 80)
          if (name) token.name = name
        }
        return token
      },
      async session({ session, token, user, trigger, newSession }) {
        // Database sessions: updateSession({ name }) reaches this callback; store the name.
        if (trigger === "update" && user && typeof newSession?.name === "string") {
          const name = newSession.name.trim().slice(0, 80)
          if (name && adapter.updateUser) {
            await adapter.updateUser({ id: user.id, name })
            if (session.user) session.user.name = name
          }
        }
        const id = token?.sub ?? user?.id
        if (session.user && id) session.user.id = id
        return session
      },
    },
  }
}

/** How the demo keeps sessions: in its database unless LATCH_DEMO_SESSION=jwt. */
export function demoSessionStrategy(): "jwt" | "database" {
  return env.LATCH_DEMO_SESSION === "jwt" ? "jwt" : "database"
}

/** Whether the demo has password accounts: only with an email provider to send their mails. */
export function demoPasswordAccounts(): boolean {
  return Boolean(env.AUTH_EMAIL_SERVER || env.AUTH_RESEND_KEY)
}

// Lazy: built on the first request (when the runtime environment is readable), then reused —
// the same object each time, so Latch prepares it once.
let config: Promise<SvelteKitAuthConfig> | undefined
function demoConfig(): Promise<SvelteKitAuthConfig> {
  // A database that is down at start-up is tried again on the next request.
  config ??= createConfig().catch((error: unknown) => {
    config = undefined
    throw error
  })
  return config
}
export const {
  handle,
  signIn,
  signOut,
  // The form actions of password accounts and of the profile's sign-in methods.
  signUp,
  requestPasswordReset,
  setNewPassword,
  changePassword,
  removeSignInMethod,
  renamePasskey,
  // The form actions of two-factor authentication: the code step (/two-factor), the setup
  // (/settings/two-factor), turning it off and new recovery codes (/profile).
  verifyTwoFactor,
  confirmTwoFactorSetup,
  disableTwoFactor,
  regenerateRecoveryCodes,
  // "Confirm it is you" (/confirm): the password, a code, a passkey or a mailed code.
  reauthenticate,
} = SvelteKitAuth(demoConfig)

/** The demo's adapter, for pages that show what it stores (the profile's passkeys). */
export async function demoAdapter() {
  return (await demoConfig()).adapter!
}
