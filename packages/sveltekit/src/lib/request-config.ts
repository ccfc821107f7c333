/**
 * The configuration of the request, as the handle resolved it, for the helpers an app calls
 * with the event (`getAccessToken`, `getUserSessions`…).
 */
import type { AuthConfig } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"

/**
 * Where the handle leaves the request's configuration: a symbol-keyed property of `locals`
 * (shared by every event of the request, invisible to the app's own keys and to JSON). A
 * property rather than a WeakMap entry: it is set on every page request, and costs nothing more
 * than the object it lives on.
 */
const CONFIG = Symbol.for("latch.sveltekit.config")

type WithConfig = { [CONFIG]?: AuthConfig }

/** Called by the handle: this request's configuration, for the helpers. */
export function rememberConfig(event: Pick<RequestEvent, "locals">, config: AuthConfig): void {
  ;(event.locals as WithConfig)[CONFIG] = config
}

/** The request's configuration, or an error saying the handle is missing. */
export function configOf(event: Pick<RequestEvent, "locals">, helper: string): AuthConfig {
  const config = (event.locals as WithConfig)[CONFIG]
  if (!config) {
    throw new Error(`${helper}(event) needs Latch's handle: export it from src/hooks.server.ts`)
  }
  return config
}
