/**
 * Two-factor authentication's actions (`twoFactor` in the configuration):
 *
 * ```
 * GET|POST {basePath}/two-factor                 the code step of a pending sign-in
 * GET|POST {basePath}/two-factor/setup           set up an authenticator app (signed in, or a
 *                                                pending sign-in that must set one up)
 * POST     {basePath}/two-factor/disable         turn it off (a code required)
 * POST     {basePath}/two-factor/recovery-codes  new recovery codes (a code required)
 * GET|POST {basePath}/two-factor/security-key…   security keys (two-factor-key.ts)
 * ```
 *
 * Posts answer with redirects, or — the setup and new recovery codes — with the recovery codes:
 * a page, or `{ url, recoveryCodes }` with `X-Auth-Return-Redirect: 1` (integrations' forms).
 */
import type { AdapterUser } from "../adapters.js"
import { ReauthenticationRequired, TwoFactorError, UnknownAction } from "../errors.js"
import { withQuery } from "../lib/url.js"
import { reauthenticationUrl } from "../account/step-url.js"
import { htmlResponse } from "../response/html.js"
import { redirectTo } from "../response/redirect.js"
import { ensureCSRFToken } from "../security/csrf.js"
import { resolveCallbackUrl } from "../security/redirect.js"
import type { ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"
import {
  keyAnswer,
  keyOptions,
  keyRemove,
  keySetup,
  keySetupOptions,
  keyUrls,
} from "./two-factor-key.js"
import {
  completeSignIn,
  currentToken,
  pendingOf,
  showCodes,
  signedInUser,
} from "./two-factor-shared.js"

async function flows() {
  const [pending, enrol, verify] = await Promise.all([
    import("../flows/two-factor/pending.js"),
    import("../flows/two-factor/enrol.js"),
    import("../flows/two-factor/verify.js"),
  ])
  return { ...pending, ...enrol, ...verify }
}

function requireTwoFactor(ctx: ActionContext): void {
  if (!ctx.config.twoFactor) throw new UnknownAction("Two-factor authentication is not configured")
}

const STEPS = [
  "",
  "setup",
  "disable",
  "recovery-codes",
  "security-key",
  "security-key-setup",
  "security-key-remove",
] as const

/** The sub-action in the path: `/two-factor[/<step>]`. */
function stepOf(ctx: ActionContext): (typeof STEPS)[number] {
  const step = ctx.request.providerId ?? ""
  const known = STEPS.find((s) => s === step)
  if (known !== undefined) return known
  throw new UnknownAction("Unknown two-factor step")
}

/**
 * The re-authentication step, coming back to this setup page, for a first setup by a session
 * whose proof is stale; `undefined` otherwise (replacing a factor asks a code of it instead).
 */
async function unlessFresh(
  ctx: ActionContext,
  user: AdapterUser,
): Promise<ResponseInternal | undefined> {
  const [{ requireFreshProof }, { hasTotp }] = await Promise.all([
    import("../account/change.js"),
    import("../flows/two-factor/store.js"),
  ])
  if (await hasTotp(ctx, user.id)) return undefined
  try {
    await requireFreshProof(ctx, user)
    return undefined
  } catch (error) {
    if (!(error instanceof ReauthenticationRequired)) throw error
    // Back to this page, with where it was headed (checked again when the page is shown).
    const here = withQuery(`${ctx.actionBase}/two-factor/setup`, {
      callbackUrl: ctx.request.query.callbackUrl,
    })
    return redirectTo(ctx, reauthenticationUrl(ctx, here, error.code))
  }
}

export async function twoFactorPage(ctx: ActionContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const step = stepOf(ctx)
  if (step === "security-key") return keyOptions(ctx)
  if (step === "security-key-setup") return keySetupOptions(ctx)
  const { pendingSignIn } = await flows()
  const { pages } = ctx.config
  if (step === "setup" && pages.twoFactorSetup) return toAppPage(ctx, pages.twoFactorSetup)
  if (step === "" && pages.twoFactor) return toAppPage(ctx, pages.twoFactor)
  const pending = await pendingSignIn(ctx)
  if (step === "setup") return setupPage(ctx, pending?.mode === "enrol" ? pending.userId : null)
  if (step !== "") throw new UnknownAction("This two-factor step is posted")
  if (!pending) throw new TwoFactorError("no pending sign-in", { code: "expired" })
  if (pending.mode === "enrol")
    return redirectTo(ctx, pages.twoFactorSetup ?? `${ctx.actionBase}/two-factor/setup`)
  const [{ renderTwoFactorPage }, { hasTotp }] = await Promise.all([
    import("../pages/two-factor.js"),
    import("../flows/two-factor/store.js"),
  ])
  return htmlResponse(
    renderTwoFactorPage({
      theme: ctx.config.theme,
      csrfToken: await ensureCSRFToken(ctx),
      action: `${ctx.actionBase}/two-factor`,
      code: ctx.request.query.error ? ctx.request.query.code : undefined,
      app: await hasTotp(ctx, pending.userId),
      ...(await keyUrls(ctx, pending)),
    }),
  )
}

/** The app's own page for this step, with the query kept (`?error=`, `?code=`). */
function toAppPage(ctx: ActionContext, page: string): ResponseInternal {
  return redirectTo(ctx, withQuery(page, { ...ctx.request.query }))
}

async function setupPage(ctx: ActionContext, pendingUserId: string | null) {
  const { beginSetup, userById } = await flows()
  const user = pendingUserId ? await userById(ctx, pendingUserId) : await signedInUser(ctx)
  if (!user) throw new TwoFactorError("no pending sign-in", { code: "expired" })
  // Turning it on is a change of the account: a session whose proof is stale confirms it is the
  // user first, before a key is shown (the post would ask anyway, and the key would be lost).
  if (!pendingUserId) {
    const step = await unlessFresh(ctx, user)
    if (step) return step
  }
  const setup = await beginSetup(ctx, user)
  const [{ renderTwoFactorSetupPage }, { qrSvg }] = await Promise.all([
    import("../pages/two-factor.js"),
    import("../lib/qr-svg.js"),
  ])
  return htmlResponse(
    renderTwoFactorSetupPage({
      theme: ctx.config.theme,
      csrfToken: await ensureCSRFToken(ctx),
      action: `${ctx.actionBase}/two-factor/setup`,
      qrSvg: qrSvg(setup.uri, { label: "QR code for your authenticator app" }),
      secret: setup.secret,
      setup: setup.setup,
      replacing: setup.replacing,
      callbackUrl: pendingUserId ? undefined : await resolveCallbackUrl(ctx),
      code: ctx.request.query.error ? ctx.request.query.code : undefined,
      // A key is another first factor to set up, not a replacement of the app's.
      ...(setup.replacing ? {} : await keyUrls(ctx)),
    }),
  )
}

export async function twoFactorPost(ctx: ActionContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const step = stepOf(ctx)
  if (step === "") return verifyCode(ctx)
  if (step === "setup") return confirmSetupPost(ctx)
  if (step === "security-key") return keyAnswer(ctx)
  if (step === "security-key-setup") return keySetup(ctx)
  if (step === "security-key-remove") return keyRemove(ctx)
  const user = await signedInUser(ctx)
  const { disable, regenerateRecoveryCodes } = await flows()
  if (step === "disable") {
    const codes = await disable(ctx, user)
    const next = await resolveCallbackUrl(ctx)
    return codes ? showCodes(ctx, codes, next) : redirectTo(ctx, next)
  }
  return showCodes(ctx, await regenerateRecoveryCodes(ctx, user), await resolveCallbackUrl(ctx))
}

/** The code step: the pending sign-in gets its session once the code matches. */
async function verifyCode(ctx: ActionContext): Promise<ResponseInternal> {
  const { checkSecondFactor } = await flows()
  const { pending, user } = await pendingOf(ctx, "verify")
  const method = await checkSecondFactor(ctx, user, ctx.request.body, "twoFactor")
  return redirectTo(ctx, await completeSignIn(ctx, user, pending, method))
}

/** A setup confirmed: by a pending sign-in that had to set one up, or a signed-in user. */
async function confirmSetupPost(ctx: ActionContext): Promise<ResponseInternal> {
  const { pendingSignIn, confirmSetup } = await flows()
  if ((await pendingSignIn(ctx))?.mode === "enrol") {
    const { pending, user } = await pendingOf(ctx, "enrol")
    const codes = await confirmSetup(ctx, user, { keepSession: undefined, pendingSignIn: true })
    return showCodes(ctx, codes, await completeSignIn(ctx, user, pending, "totp"))
  }
  const user = await signedInUser(ctx)
  const codes = await confirmSetup(ctx, user, {
    keepSession: await currentToken(ctx),
    pendingSignIn: false,
  })
  return showCodes(ctx, codes, await resolveCallbackUrl(ctx))
}
