/**
 * `POST {basePath}/signin/<email provider>`: the user asks for a sign-in link.
 *
 * The address is normalized and checked, the rate limits counted, the `signIn` callback asked
 * (`email.verificationRequest: true`; a URL it returns is where the user goes instead, and no
 * mail is sent), a token created and stored hashed — and, with the provider's `code` on, a short
 * code (`code.ts`) — the mail sent, and the browser remembers that it asked (see `binding.ts`);
 * the user is sent to the "check your email" page.
 */
import { logThrottled, moreLikeIt, reasonOf } from "../../lib/log-throttle.js"
import type { ActionContext } from "../../actions/context.js"
import { AccessDenied, EmailSignInError } from "../../errors.js"
import { withQuery } from "../../lib/url.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import type { AdapterUser } from "../../adapters.js"
import type { User } from "../../types.js"
import { normalizeAddress } from "./address.js"
import { emailAdapter } from "./adapter.js"
import { bindLinkToBrowser } from "./binding.js"
import { codeRequest, issueCode } from "./code.js"
import { codeSettings } from "./code-options.js"
import { rateLimitReached } from "./rate-limit.js"
import { newToken, hashToken } from "./token.js"

/** The default maximum age of a link: 24 hours. */
export const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60

/** Where the user goes once the mail is on its way: the verify-request page. */
function verifyRequestUrl(
  ctx: ActionContext,
  provider: EmailConfig,
  address: string,
  limited?: "address" | "client",
): string {
  const page = ctx.config.pages.verifyRequest ?? `${ctx.actionBase}/verify-request`
  const host = address.slice(address.lastIndexOf("@") + 1)
  return withQuery(new URL(page, ctx.origin).href, {
    provider: provider.id,
    type: "email",
    host,
    // With `rateLimit.sayWhenReached`: the page says that no mail went out, and why.
    ...(limited && { error: "EmailRateLimited", code: limited }),
  })
}

/** The user the link is for: the stored one with that address, or the one it would create. */
async function candidateUser(ctx: ActionContext, address: string): Promise<User | AdapterUser> {
  const adapter = emailAdapter(ctx)
  const stored = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(address))
  return stored ?? { id: address, email: address, emailVerified: null }
}

/**
 * A URL the `signIn` callback answered, as any redirect: through the `redirect` callback, whose
 * default keeps it on the site's origin.
 */
async function redirectOf(ctx: ActionContext, url: string): Promise<string> {
  try {
    const checked = await ctx.config.callbacks.redirect({ url, baseUrl: ctx.origin })
    return new URL(checked, ctx.origin).href
  } catch (error) {
    ctx.logger.debug("signIn callback URL refused", { url, error })
    return ctx.origin
  }
}

/**
 * Asks the `signIn` callback whether this address may get a link: `false` (or a throw) refuses
 * with `AccessDenied`; a URL sends the user there instead, and no link is made; `undefined`
 * when the link may go out.
 */
async function allowLink(
  ctx: ActionContext,
  provider: EmailConfig,
  user: User,
): Promise<string | undefined> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({
      user,
      account: { provider: provider.id, type: "email", providerAccountId: String(user.email) },
      email: { verificationRequest: true },
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : "The signIn callback threw"
    throw new AccessDenied(message, { cause: error })
  }
  if (verdict === false) throw new AccessDenied("The signIn callback refused the sign-in link")
  if (typeof verdict === "string") return redirectOf(ctx, verdict)
  return undefined
}

/** Creates the link, stores its token and sends it; returns the verify-request URL. */
export async function startEmailSignIn(
  ctx: ActionContext,
  provider: EmailConfig,
  callbackUrl: string,
): Promise<string> {
  const address = normalizeAddress(ctx.request.body.email, provider.normalizeIdentifier)
  const adapter = emailAdapter(ctx)
  const next = verifyRequestUrl(ctx, provider, address)

  const expires = new Date(Date.now() + (provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE) * 1000)
  const codes = codeSettings(provider)
  const request = codes && codeRequest(codes, expires, callbackUrl)
  const limited = await rateLimitReached(ctx, provider, address)
  if (limited) {
    ctx.logger.debug("email sign-in: rate limit reached, no mail sent", { provider: provider.id })
    // The same answer as a sent link, cookie included: the limit shows in nothing, unless the
    // provider asks the page to say so. It says the same for any address: the counter is the
    // address's, counted before anything looked it up.
    await bindLinkToBrowser(ctx, provider, address, expires, request)
    return provider.rateLimit && provider.rateLimit.sayWhenReached
      ? verifyRequestUrl(ctx, provider, address, limited)
      : next
  }
  const elsewhere = await allowLink(ctx, provider, await candidateUser(ctx, address))
  if (elsewhere !== undefined) return elsewhere

  const token = await newToken(provider)
  const url = withQuery(`${ctx.actionBase}/callback/${encodeURIComponent(provider.id)}`, {
    callbackUrl,
    token,
    email: address,
  })
  const stored = {
    identifier: address,
    token: await hashToken(token, ctx.config.secrets[0]!),
    expires,
  }
  await callAdapter("createVerificationToken", () => adapter.createVerificationToken(stored))
  const code = codes && request && (await issueCode(ctx, provider, codes, address, request))
  try {
    await provider.sendVerificationRequest({
      identifier: address,
      url,
      expires,
      provider,
      token,
      theme: ctx.config.theme,
      request: ctx.request.request,
      ...(code && request ? { code, codeExpires: request.expires } : {}),
    })
  } catch (error) {
    // The user sees EmailSignin; the operator must see why (an SMTP server down, a bad password):
    // once per kind of failure per minute, as a mail server that is down fails every request.
    const message = `Sending the sign-in link with "${provider.id}" failed`
    const failure = new EmailSignInError(message, { cause: error })
    logThrottled(
      ctx.logger,
      `email\u0000${provider.id}\u0000${reasonOf(error)}`,
      failure,
      (suppressed) => new EmailSignInError(`${message}${moreLikeIt(suppressed)}`, { cause: error }),
    )
    throw failure
  }
  await bindLinkToBrowser(ctx, provider, address, expires, request)
  return next
}
