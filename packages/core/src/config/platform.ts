/**
 * Two decisions about the deployment, made once per configuration: whether this is production,
 * and whether the platform pins the request's origin (so that the `Host` a client sends cannot
 * name a site that is not the deployer's).
 *
 * Production unless told otherwise: only `NODE_ENV=development` or `NODE_ENV=test` relaxes the
 * rules. Auth.js reads a missing `NODE_ENV` as development, but a Cloudflare Worker, a Deno
 * server or a Bun server has no `NODE_ENV` unless the deployer sets one, so that reading let a
 * 5-character secret through on a live Worker. Forgetting to say "development" costs a refused
 * short secret on a laptop; forgetting to say "production" cost the secret rules on a server.
 *
 * Pinned origins, detected where the platform itself routes by host name, so that a request
 * reaches the app only under a host name the deployer bound to it:
 * - Vercel (`VERCEL`), Cloudflare Pages (`CF_PAGES`), Netlify (`NETLIFY`, or the `Netlify`
 *   global of its functions and edge functions), Deno Deploy (`DENO_DEPLOYMENT_ID`);
 * - Cloudflare Workers (`navigator.userAgent === "Cloudflare-Workers"`): Cloudflare hands a
 *   request to a Worker only for its routes, custom domains and `*.workers.dev` name, and the
 *   URL the Worker sees carries that host. The `workers.dev` name stays reachable unless turned
 *   off (`workers_dev = false`), so links may name it when a request came that way — still the
 *   deployer's own Worker, never a host the client made up; `AUTH_URL` picks one canonical
 *   origin.
 *
 * Not detected as pinned: Vercel's edge runtime by its `EdgeRuntime` global alone (Next.js
 * defines it for self-hosted middleware too, behind any proxy; on Vercel, `VERCEL` is set), Bun
 * and Deno outside Deno Deploy (plain servers: the `Host` is whatever the client sent).
 */
import type { Env } from "../types/env.js"

/** Whether the rules of production apply: unless `NODE_ENV` is `development` or `test`. */
export function isProduction(env: Env): boolean {
  const mode = env.NODE_ENV?.trim().toLowerCase()
  return mode !== "development" && mode !== "test"
}

/** Whether this runs in Cloudflare's workerd (deployed, or in `wrangler dev`/miniflare). */
export function onCloudflareWorkers(): boolean {
  try {
    return (
      (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent ===
      "Cloudflare-Workers"
    )
  } catch {
    return false
  }
}

function onNetlify(): boolean {
  return typeof (globalThis as { Netlify?: unknown }).Netlify === "object"
}

/** Whether the platform routes requests by the deployer's own host names (see above). */
export function platformPinsOrigin(env: Env): boolean {
  if (env.VERCEL || env.CF_PAGES || env.NETLIFY || env.DENO_DEPLOYMENT_ID) return true
  return onCloudflareWorkers() || onNetlify()
}
