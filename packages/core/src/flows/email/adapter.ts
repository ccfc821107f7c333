/** The adapter methods email sign-in needs (checked when the configuration is resolved). */
import type { ActionContext } from "../../actions/context.js"
import type { Adapter } from "../../adapters.js"
import { MissingAdapter } from "../../errors.js"
import { requireMethods } from "../../session/adapter-call.js"

export const EMAIL_ADAPTER_METHODS = [
  "createVerificationToken",
  "useVerificationToken",
  "getUserByEmail",
  "getUserByAccount",
  "getUser",
  "createUser",
  "updateUser",
  "linkAccount",
] as const

export type EmailAdapter = Adapter & Required<Pick<Adapter, (typeof EMAIL_ADAPTER_METHODS)[number]>>

/** The configuration's adapter, with the methods email sign-in uses. */
export function emailAdapter(ctx: ActionContext): EmailAdapter {
  const adapter = ctx.config.adapter
  if (!adapter) throw new MissingAdapter("Email sign-in needs an adapter to store its tokens")
  return requireMethods(adapter, EMAIL_ADAPTER_METHODS, "email sign-in")
}
