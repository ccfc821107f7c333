/**
 * Configuration checks, run once per configuration. An error here is thrown by every request
 * of that configuration (and logged once); warnings are printed once.
 */
import { MissingAdapter, MissingSecret } from "../errors.js"
import type { WarningCode } from "../lib/logger.js"
import type { Env } from "./env.js"
import { isProduction, platformPinsOrigin } from "./platform.js"

/** The least length of a secret: 32 characters, about 192 bits of a base64 secret. */
export const MIN_SECRET_LENGTH = 32

/** What the checks need to know. */
export interface AssertInput {
  secrets: readonly string[]
  strategy: "jwt" | "database"
  hasAdapter: boolean
  debug: boolean
  skipCSRFCheck: boolean
  basePathGiven: boolean
  authURL: URL | undefined
  basePath: string
  trustHost: boolean
  env: Env
  /** The runtime's refusal to let the environment be read, when it refused. */
  envRefusal: string | undefined
}

/**
 * Whether the request URL's origin is pinned by the deployment, not taken from the `Host`
 * header: adapter-node's `ORIGIN` (or its `HOST_HEADER`, which names the header the deployer's
 * proxy sets; both honour `ENV_PREFIX`), and platforms that route by the deployer's own host
 * names (`platform.ts`).
 */
function originIsPinned(env: Env): boolean {
  const prefix = env.ENV_PREFIX ?? ""
  if (env[`${prefix}ORIGIN`] || env[`${prefix}HOST_HEADER`]) return true
  return platformPinsOrigin(env)
}

/** Throws the first configuration error; returns the warnings to print. */
export function assertConfig(input: AssertInput): WarningCode[] {
  const warnings: WarningCode[] = []
  if (input.secrets.length === 0) {
    const refused = input.envRefusal
      ? ` The environment could not be read (${input.envRefusal}): grant the read (Deno: --allow-env) or pass \`secret\` in the configuration.`
      : ""
    throw new MissingSecret(
      `No secret: set AUTH_SECRET (or \`secret\` in the configuration) to a random string of at least 32 characters, e.g. the output of \`npx @latch/core secret\` or \`openssl rand -base64 33\`.${refused}`,
    )
  }
  // The first secret encrypts; the older ones only decrypt what was issued under them, so a short
  // one kept for a rotation (e.g. the secret of an app that moved from Auth.js) is a warning.
  if (input.secrets.some((secret) => secret.length < MIN_SECRET_LENGTH)) {
    if (isProduction(input.env) && input.secrets[0]!.length < MIN_SECRET_LENGTH) {
      throw new MissingSecret(
        `A secret is shorter than ${MIN_SECRET_LENGTH} characters, which is refused in production. Generate one with \`npx @latch/core secret\` or \`openssl rand -base64 33\`.`,
      )
    }
    warnings.push("weak-secret")
  }
  if (input.strategy === "database" && !input.hasAdapter) {
    throw new MissingAdapter('session.strategy "database" needs an adapter: set `adapter`.')
  }
  if (input.debug) warnings.push("debug-enabled")
  if (isProduction(input.env) && input.trustHost && !input.authURL && !originIsPinned(input.env)) {
    warnings.push("origin-from-request")
  }
  if (input.skipCSRFCheck) warnings.push("csrf-disabled")
  if (input.authURL && input.authURL.pathname !== "/" && input.basePathGiven) {
    const urlPath = input.authURL.pathname.replace(/\/+$/, "")
    if (urlPath !== input.basePath) warnings.push("env-url-basepath-mismatch")
  }
  return warnings
}
