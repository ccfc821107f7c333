// The profile: the user's name, their sign-in methods, passkeys, two-factor authentication, and
// where they are signed in (their database sessions), with form actions that remove a sign-in
// method, turn two-factor authentication off or make new recovery codes, sign one device out,
// or every device but this one.
// Changing how the user signs in (adding a passkey, linking an account, removing a method, turning
// two-factor on) needs a sign-in of this browser within five minutes; past that, each change goes
// to /confirm first ("Confirm it is you") and comes back here, with nothing changed yet.
import {
  AccountError,
  getPasskeySignals,
  getReauthentication,
  getSignInMethods,
  getTwoFactorStatus,
  getUserSessions,
  revokeOtherSessions,
  revokeUserSession,
  TwoFactorError,
} from "@latch/sveltekit"
import { fail, redirect, type RequestEvent } from "@sveltejs/kit"
import {
  demoPasswordAccounts,
  demoSessionStrategy,
  disableTwoFactor,
  regenerateRecoveryCodes,
  removeSignInMethod,
  renamePasskey,
} from "../../auth"
import type { Actions, PageServerLoad } from "./$types"
import { postedForm } from "$lib/server/form"
import { hasUser, signedOut } from "$lib/server/signed-out"
import { fromDatabase } from "$lib/server/unavailable"
import { updateSession } from "$lib/server/update-session"

/** The sign-in page, coming back here. */
const signInHere = `/signin?${new URLSearchParams({ callbackUrl: "/profile" })}`

export const load: PageServerLoad = async (event) => {
  const session = await event.locals.auth()
  if (!session?.user) {
    // A form of this page posted without a session, without JavaScript: the page rendered with
    // the action's answer says so (a redirect would drop it). Nothing of the account is shown.
    if (event.request.method === "POST") return { signedOut: true as const }
    redirect(303, signInHere)
  }
  // How the user signs in (linked accounts, passkeys, the password, email links), each marked
  // whether it may be removed now: never the last way in.
  // The database may go down between `locals.auth()` (perhaps served from the session cache)
  // and these reads: a 503 then, as for the session itself.
  const methods = await fromDatabase(event, () => getSignInMethods(event))
  if (methods === null) redirect(303, signInHere)
  // What the browser's passkey provider is told (the WebAuthn Signal API): which passkeys of
  // this site the user still has, and their names.
  const signals = await fromDatabase(event, () => getPasskeySignals(event))
  // Whether signing in asks a code of an authenticator app (turned on at /settings/two-factor).
  const twoFactor = await fromDatabase(event, () => getTwoFactorStatus(event))
  if (twoFactor === null) redirect(303, signInHere)
  // Whether a change may be made now without confirming it is you first (`fresh`, until
  // `freshUntil`): the page says so, and links another account only once confirmed.
  const reauthentication = await fromDatabase(event, () => getReauthentication(event))
  if (reauthentication === null) redirect(303, signInHere)
  // The providers a button links to the account: a sign-in posted while signed in adds the
  // account it signs in with to this user.
  const providers = (await (await event.fetch("/auth/providers")).json()) as Record<
    string,
    { id: string; name: string; type: string }
  >
  // Not one already linked: linking it again would only sign in with the same account.
  const linked = new Set(methods.map((method) => method.provider))
  const linkable = Object.values(providers)
    .filter((provider) => provider.type === "oauth" || provider.type === "oidc")
    .filter((provider) => !linked.has(provider.id))
    .map(({ id, name }) => ({ id, name }))
  // "Where you are signed in": database sessions only. A JWT session lives in its cookie alone,
  // so the server has no list of them to show or to end.
  const sessions =
    demoSessionStrategy() === "database"
      ? await fromDatabase(event, () => getUserSessions(event))
      : undefined
  // Ended since `locals.auth()` read it (by another device, on another instance).
  if (sessions === null) redirect(303, signInHere)
  return {
    user: session.user,
    methods,
    linkable,
    passwords: demoPasswordAccounts(),
    removed: event.url.searchParams.has("removed"),
    saved: event.url.searchParams.has("saved"),
    twoFactor,
    twoFactorOff: event.url.searchParams.has("twoFactorOff"),
    changes: {
      fresh: reauthentication.fresh,
      freshUntil: reauthentication.freshUntil ?? null,
    },
    // The user's passkeys, with what Latch stores of them (never their keys: only what to
    // show). `lastUsedAt` is when one last signed in, not its signature counter: that counts
    // the authenticator's signatures (registration is one; a synced passkey reports 0 forever).
    passkeys: methods.flatMap((method) =>
      method.type === "webauthn" && method.passkey
        ? [
            {
              id: method.id,
              provider: method.provider,
              removable: method.removable,
              ...method.passkey,
            },
          ]
        : [],
    ),
    signals: signals ?? null,
    renamed: event.url.searchParams.has("renamed"),
    // Named by id and described by what they recorded: a page never sees a session's token.
    // This device first, then the others, most recently used first (as listed).
    sessions:
      sessions
        ?.toSorted((a, b) => Number(b.current) - Number(a.current))
        .map(({ id, current, userAgent, clientAddress, createdAt, lastSeenAt }) => ({
          id,
          current,
          userAgent,
          clientAddress,
          createdAt,
          lastSeenAt,
        })) ?? null,
  }
}

/** The actions below need a signed-in user with database sessions. */
async function refusal(event: RequestEvent) {
  if (!(await hasUser(event))) return signedOut("sessions")
  if (demoSessionStrategy() !== "database") {
    return fail(400, { message: "Sessions are not listed with JWT sessions." })
  }
  return undefined
}

// Plain form posts: they work without JavaScript. SvelteKit refuses a cross-site post to an
// action (its origin check), and Latch only ever ends a session of the user whose cookie came.
// Each one posted without a session (signed out in another tab or device) answers
// `signedOut(form)`: the page says so above that form's button, with a link to sign in again.
export const actions: Actions = {
  // The display name: `update({ name })` of the session, as the browser's live session does it,
  // so that it works without JavaScript too. The `jwt` (or `session`) callback keeps the name;
  // then back here (`?saved`), where the page, the header and the other tabs show it.
  saveName: async (event) => {
    if (!(await hasUser(event))) return signedOut("name")
    const name = (await postedForm(event.request)).get("name")
    if (typeof name !== "string" || !name.trim()) {
      return fail(400, { nameMessage: "Enter a name: spaces alone are not one." })
    }
    const session = await updateSession(event, { name })
    if (!session?.user) return signedOut("name")
    // A fresh page with the new session: this request's `locals.auth()` read the old one.
    redirect(303, "/profile?saved")
  },
  // Removes one sign-in method (its `provider` and `id`, as listed), then comes back here.
  // Refused (`AccountError`): the last way in (`last_method`), one that is not the user's or is
  // gone already (`not_found`), or no session (`signed_out`).
  removeMethod: async (event) => {
    if (!(await hasUser(event))) return signedOut("methods")
    try {
      await removeSignInMethod(event)
    } catch (error) {
      if (error instanceof AccountError) {
        if (error.code === "signed_out") return signedOut("methods")
        return fail(400, { methodCode: error.code })
      }
      throw error
    }
  },
  // Renames one of the user's passkeys (`id`, `name`), then back here (`?renamed`). No
  // confirmation asked: a name opens nothing. Refused (`AccountError`): a name that is empty,
  // too long or has control characters (`invalid_name`), a passkey that is not the user's
  // (`not_found`), no session (`signed_out`).
  renamePasskey: async (event) => {
    if (!(await hasUser(event))) return signedOut("passkeys")
    try {
      await renamePasskey(event, {
        ...Object.fromEntries(await postedForm(event.request)),
        redirectTo: "/profile?renamed#passkeys",
      })
    } catch (error) {
      if (error instanceof AccountError) {
        if (error.code === "signed_out") return signedOut("passkeys")
        return fail(400, { passkeyCode: error.code })
      }
      throw error
    }
  },
  // Turns two-factor authentication off, given a code of the app or a recovery code (a session
  // alone does not), then comes back here (the form's `redirectTo`). Refused (`TwoFactorError`):
  // `wrong_code`, `replayed_code`, `rate_limited`, `not_enrolled`, `signed_out`.
  turnOffTwoFactor: async (event) => {
    if (!(await hasUser(event))) return signedOut("turnOff")
    try {
      // With security keys left, it stays on (the keys) and new recovery codes come back: shown
      // once, as "New recovery codes" shows them.
      const { recoveryCodes } = await disableTwoFactor(event)
      return { recoveryCodes }
    } catch (error) {
      if (error instanceof TwoFactorError) {
        if (error.code === "signed_out") return signedOut("turnOff")
        return fail(400, { twoFactorForm: "turnOff", twoFactorCode: error.code })
      }
      throw error
    }
  },
  // New recovery codes, given a code of the app; the old ones stop working. The page shows them
  // once: Latch keeps only their HMACs.
  newRecoveryCodes: async (event) => {
    if (!(await hasUser(event))) return signedOut("recoveryCodes")
    try {
      const { recoveryCodes } = await regenerateRecoveryCodes(event)
      return { recoveryCodes }
    } catch (error) {
      if (error instanceof TwoFactorError) {
        if (error.code === "signed_out") return signedOut("recoveryCodes")
        return fail(400, { twoFactorForm: "recoveryCodes", twoFactorCode: error.code })
      }
      throw error
    }
  },
  revoke: async (event) => {
    const refused = await refusal(event)
    if (refused) return refused
    const id = (await postedForm(event.request)).get("id")
    if (
      typeof id !== "string" ||
      !(await fromDatabase(event, () => revokeUserSession(event, id)))
    ) {
      // Someone else's, or already signed out (by another tab or device).
      return fail(404, { message: "That session was already signed out." })
    }
    return { signedOut: 1 }
  },
  revokeOthers: async (event) => {
    const refused = await refusal(event)
    if (refused) return refused
    return { signedOut: await fromDatabase(event, () => revokeOtherSessions(event)) }
  },
}
