/** Events are audit hooks: one that throws is logged and never breaks the flow. */
import type { ActionContext } from "../actions/context.js"
import { EventError } from "../errors.js"
import type { EventCallbacks } from "../types.js"

/** Runs an event handler, if configured, and logs what it throws. */
export async function emitEvent<Name extends keyof EventCallbacks>(
  ctx: Pick<ActionContext, "config" | "logger">,
  name: Name,
  message: Parameters<EventCallbacks[Name]>[0],
): Promise<void> {
  const handler = ctx.config.events[name] as ((message: unknown) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    ctx.logger.error(new EventError(`The "${name}" event handler threw`, { cause: error }))
  }
}
