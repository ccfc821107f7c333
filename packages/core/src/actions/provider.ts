/** The provider named in the path, or the error a client gets for naming none or a wrong one. */
import type { InternalProvider } from "../config/providers.js"
import { InvalidProvider } from "../errors.js"
import type { ActionContext } from "./context.js"

export function providerOf(ctx: ActionContext): InternalProvider {
  const id = ctx.request.providerId
  const provider = id === undefined ? undefined : ctx.config.providers.get(id)
  if (!provider)
    throw new InvalidProvider(
      id === undefined ? "No provider in the path" : `No provider with id ${JSON.stringify(id)}`,
    )
  return provider
}
