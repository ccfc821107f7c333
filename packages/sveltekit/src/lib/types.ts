/**
 * Types of `@latch/sveltekit`, and the `App.Locals` and `App.PageData` declarations apps get by
 * importing it.
 */
import type { AuthConfig, Session } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"

/**
 * The configuration: `@latch/core`'s, with `basePath` relative to SvelteKit's `paths.base`
 * (default: the path of `AUTH_URL`, which includes `paths.base`, else `/auth`) and `trustHost` on
 * by default, since SvelteKit builds `event.url` from the adapter's trusted origin.
 */
export type SvelteKitAuthConfig = AuthConfig

/** A configuration, or a function of the request event returning one (lazy initialisation). */
export type SvelteKitAuthConfigInput =
  | SvelteKitAuthConfig
  | ((event: RequestEvent) => SvelteKitAuthConfig | PromiseLike<SvelteKitAuthConfig>)

/**
 * SvelteKit's `Handle`, spelled out: SvelteKit 2 exports it from `@sveltejs/kit`, SvelteKit 3 from
 * `@sveltejs/kit/hooks`, and a type imported from the wrong one would be `any`. Assignable to
 * both (`sequence(handle, …)`).
 */
export type Handle = (input: {
  event: RequestEvent
  resolve: (event: RequestEvent, options?: never) => Response | Promise<Response>
}) => Response | Promise<Response>

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- SvelteKit declares App as a namespace
  namespace App {
    interface Locals {
      /**
       * The session of this request, or `null`. Memoized: however many loads and actions call
       * it, the cookie is decrypted once.
       */
      auth(): Promise<Session | null>
      /** @deprecated The same function as `auth`, kept for apps written for Auth.js. */
      getSession(): Promise<Session | null>
    }
    interface PageData {
      /** The session, for apps whose root layout load returns `{ session: await locals.auth() }`. */
      session?: Session | null
    }
  }
}
