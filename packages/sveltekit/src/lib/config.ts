/**
 * The user's configuration → the one `@latch/core` runs, prepared once per configuration object:
 * environment from `$env/dynamic/private` (and the process's), `basePath` under SvelteKit's
 * `paths.base` (or `AUTH_URL`'s path when `basePath` is not set), and `trustHost` on unless
 * `AUTH_TRUST_HOST=false`.
 *
 * `trustHost` is safe here because it only lets `event.url` name the site, and SvelteKit's
 * adapter built `event.url` from the deployer's settings (adapter-node: `ORIGIN`, or the
 * `PROTOCOL_HEADER`/`HOST_HEADER` the deployer named). Latch never reads `X-Forwarded-*` itself.
 */
import { dev } from "$app/environment"
import { env } from "$env/dynamic/private"
import { raw, setEnvDefaults } from "@latch/core"
import type { AuthConfig } from "@latch/core/types"
import type { RequestEvent } from "@sveltejs/kit"
import { appBase } from "./paths.js"
import type { SvelteKitAuthConfigInput } from "./types.js"

/** A configuration ready for `Auth`, with what the integration needs to know about it. */
export interface PreparedConfig {
  config: AuthConfig
  /** The same configuration with the `raw` marker, for form actions. */
  rawConfig: AuthConfig & { raw: typeof raw }
  /** Where the actions live: `paths.base` + `basePath`, e.g. `/app/auth`. */
  authBase: string
  /** The callback paths of OAuth providers, which an OAuth server may post to cross-site. */
  oauthCallbacks: Set<string>
}

const prepared = new WeakMap<AuthConfig, PreparedConfig>()

/** Joins URL paths with exactly one "/" between segments and no trailing "/". */
export function joinPaths(...parts: string[]): string {
  const segments = parts.flatMap((part) => part.split("/")).filter(Boolean)
  return segments.length ? `/${segments.join("/")}` : ""
}

/**
 * The process's environment, copied; empty where the runtime refuses to list it (Deno without
 * `--allow-env`, whose adapters fill `$env/dynamic/private` themselves), so that the refusal
 * never escapes the handle.
 */
function processEnv(): Record<string, string | undefined> {
  try {
    return { ...globalThis.process?.env }
  } catch {
    return {}
  }
}

function prepare(user: AuthConfig, url: URL): PreparedConfig {
  // SvelteKit 3 puts in `$env/dynamic/private` only the variables an app declares (src/env.ts);
  // the process's environment (adapter-node) fills in the others, as it does with SvelteKit 2.
  const environment: Record<string, string | undefined> = { ...processEnv(), ...env }
  // A production build runs in production even where NODE_ENV is unset (adapter-node's
  // `node build`): production's checks (secret length, an unpinned origin) apply to it.
  environment.NODE_ENV ??= dev ? "development" : "production"
  const trust = environment.AUTH_TRUST_HOST?.trim().toLowerCase()
  const config: AuthConfig = {
    ...user,
    trustHost: user.trustHost ?? !(trust === "false" || trust === "0"),
  }
  // Without a `basePath`, core's rule gives `AUTH_URL`'s path (e.g. `/api/auth`), the public
  // path of the actions, `paths.base` included; without that either, `{paths.base}/auth`.
  setEnvDefaults(environment, config)
  const fromAuthURL = user.basePath === undefined ? config.basePath : undefined
  config.basePath =
    fromAuthURL === undefined
      ? joinPaths(appBase(url), user.basePath ?? "/auth")
      : joinPaths(fromAuthURL)
  const oauthCallbacks = new Set<string>()
  for (const provider of config.providers) {
    const { id, type } = typeof provider === "function" ? provider() : provider
    if (type === "oauth" || type === "oidc") {
      oauthCallbacks.add(`${config.basePath}/callback/${encodeURIComponent(id)}`)
    }
  }
  return { config, rawConfig: { ...config, raw }, authBase: config.basePath!, oauthCallbacks }
}

/** The configuration object's prepared form, if a request prepared it already. */
export function preparedFor(config: AuthConfig): PreparedConfig | undefined {
  return prepared.get(config)
}

/** The prepared configuration for a request: computed once per configuration object. */
export async function configFor(
  input: SvelteKitAuthConfigInput,
  event: RequestEvent,
): Promise<PreparedConfig> {
  const user = typeof input === "function" ? await input(event) : input
  let result = prepared.get(user)
  if (!result) {
    result = prepare(user, event.url)
    prepared.set(user, result)
  }
  return result
}
