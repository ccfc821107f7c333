/** `GET {basePath}/providers` → the configured providers, keyed by id, safe to show clients. */
import type { PublicProvider, ResponseInternal } from "../types.js"
import type { ActionContext } from "./context.js"

/** The provider list with the URLs of this site. */
export function publicProviders(ctx: ActionContext): Record<string, PublicProvider> {
  const list: Record<string, PublicProvider> = {}
  for (const { id, name, type } of ctx.config.providers.values()) {
    const segment = encodeURIComponent(id)
    list[id] = {
      id,
      name,
      type,
      signinUrl: `${ctx.actionBase}/signin/${segment}`,
      callbackUrl: `${ctx.actionBase}/callback/${segment}`,
    }
  }
  return list
}

export async function providers(ctx: ActionContext): Promise<ResponseInternal> {
  return { status: 200, body: publicProviders(ctx) }
}
