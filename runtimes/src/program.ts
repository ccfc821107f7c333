/**
 * The flow program: every flow through `Auth()`, one after another, each reported as passed or
 * failed with why. Whatever a flow throws (or `Auth()` rejects with) is caught here, so one
 * runtime's missing API shows as that flow's failure, not as the end of the run.
 */
import { credentialsJwt, databaseSession } from "./flows/credentials.js"
import { emailLink } from "./flows/email.js"
import { githubStart, refresh } from "./flows/oauth.js"
import { passkey } from "./flows/passkey.js"
import { password } from "./flows/password.js"
import { twoFactor } from "./flows/two-factor.js"
import { production } from "./flows/production.js"
import { logged } from "./flows/config.js"

export interface Options {
  /** The check's authorization server (`http://127.0.0.1:<port>`). */
  server: string
  /** A name for this run: the authorization server counts grants per client. */
  client: string
  /** The runtime may not open connections: the network flow must fail cleanly. */
  offline: boolean
}

export interface FlowResult {
  flow: string
  ok: boolean
  ms: number
  detail: string
}

export const FLOWS = [
  "credentials-jwt",
  "database-session",
  "password",
  "github-start",
  "email-link",
  "two-factor",
  "passkey",
  "refresh",
  "production",
] as const

export async function runFlows(options: Options): Promise<FlowResult[]> {
  const flows: Record<(typeof FLOWS)[number], () => Promise<string>> = {
    "credentials-jwt": credentialsJwt,
    "database-session": databaseSession,
    password,
    "github-start": githubStart,
    "email-link": emailLink,
    "two-factor": twoFactor,
    passkey,
    refresh: () => refresh(options.server, options.client, options.offline),
    production,
  }
  const results: FlowResult[] = []
  for (const flow of FLOWS) {
    logged.length = 0
    const started = Date.now()
    try {
      const detail = await flows[flow]()
      results.push({ flow, ok: true, ms: Date.now() - started, detail })
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      const log = logged.length ? ` [logged: ${logged.at(-1)}]` : ""
      results.push({ flow, ok: false, ms: Date.now() - started, detail: message + log })
    }
  }
  return results
}
