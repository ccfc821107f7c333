/**
 * `POST {basePath}/signin/<email provider>`: the user asks for a sign-in link.
 *
 * The address is normalized and checked, the rate limits counted, the `signIn` callback asked
 * (`email.verificationRequest: true`), a token created and stored hashed, the mail sent; the
 * user is sent to the "check your email" page.
 */
import type { ActionContext } from "../../actions/context.js"
import { AccessDenied, EmailSignInError } from "../../errors.js"
import { withQuery } from "../../lib/url.js"
import type { EmailConfig } from "../../providers/email.js"
import { callAdapter } from "../../session/adapter-call.js"
import type { AdapterUser } from "../../adapters.js"
import type { User } from "../../types.js"
import { normalizeAddress } from "./address.js"
import { emailAdapter } from "./adapter.js"
import { withinRateLimit } from "./rate-limit.js"
import { newToken, hashToken } from "./token.js"

/** The default maximum age of a link: 24 hours. */
export const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60

/** Where the user goes once the mail is on its way: the verify-request page. */
function verifyRequestUrl(ctx: ActionContext, provider: EmailConfig, address: string): string {
  const page = ctx.config.pages.verifyRequest ?? `${ctx.actionBase}/verify-request`
  const host = address.slice(address.lastIndexOf("@") + 1)
  return withQuery(new URL(page, ctx.origin).href, { provider: provider.id, type: "email", host })
}

/** The user the link is for: the stored one with that address, or the one it would create. */
async function candidateUser(ctx: ActionContext, address: string): Promise<User | AdapterUser> {
  const adapter = emailAdapter(ctx)
  const stored = await callAdapter("getUserByEmail", () => adapter.getUserByEmail(address))
  return stored ?? { id: address, email: address, emailVerified: null }
}

/** Asks the `signIn` callback whether this address may get a link. */
async function allowLink(ctx: ActionContext, provider: EmailConfig, user: User): Promise<void> {
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

  if (!(await withinRateLimit(ctx, provider, address))) {
    ctx.logger.debug("email sign-in: rate limit reached, no mail sent", { provider: provider.id })
    return next
  }
  await allowLink(ctx, provider, await candidateUser(ctx, address))

  const token = await newToken(provider)
  const expires = new Date(Date.now() + (provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE) * 1000)
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
  try {
    await provider.sendVerificationRequest({
      identifier: address,
      url,
      expires,
      provider,
      token,
      theme: ctx.config.theme,
      request: ctx.request.request,
    })
  } catch (error) {
    // The user sees EmailSignin; the operator must see why (an SMTP server down, a bad password).
    const failure = new EmailSignInError(`Sending the sign-in link with "${provider.id}" failed`, {
      cause: error,
    })
    ctx.logger.error(failure)
    throw failure
  }
  return next
}
