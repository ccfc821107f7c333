/**
 * Production by default: the program sets no `NODE_ENV` (and Deno without `--allow-env`, or
 * workerd, has none to read), so a short secret must be refused, with a configuration error
 * answered (never a rejection of `Auth()`) and logged, no secret at all answered and logged as
 * `MissingSecret`, and a long one accepted.
 */
import Credentials from "@latch/core/providers/credentials"
import { Browser, check } from "../browser.js"
import { baseConfig, logged } from "./config.js"

export async function production(): Promise<string> {
  const providers = [Credentials({ credentials: {}, authorize: () => null })]
  const weak = new Browser({ ...baseConfig({ providers }), secret: "short" })
  const refused = await weak.fetch("/auth/session")
  check(refused.status === 500, `a 5-character secret answered ${refused.status}, not 500`)
  const body = await refused.text()
  check(!/\bat .+:\d+:\d+/.test(body), "the refusal carries a stack trace")
  check(
    logged.some((line) => /secret/i.test(line)),
    `nothing about the secret was logged (${logged.at(-1) ?? "nothing"})`,
  )
  // No secret in the configuration, and none in an environment (the check gives the runtime
  // none; workerd without nodejs_compat has no process at all, Deno without --allow-env may not
  // read it): a configuration error answered and logged, never a rejection of Auth().
  logged.length = 0
  const { secret: _, ...withoutSecret } = baseConfig({ providers })
  const missing = await new Browser(withoutSecret).fetch("/auth/session")
  check(missing.status === 500, `no secret answered ${missing.status}, not 500`)
  check(
    logged.some((line) => /MissingSecret/.test(line)),
    `MissingSecret was not logged (${logged.at(-1) ?? "nothing"})`,
  )
  const strong = new Browser(baseConfig({ providers }))
  const accepted = await strong.fetch("/auth/session")
  check(accepted.status === 200, `a long secret answered ${accepted.status}`)
  return "a 5-character secret and no secret refused (500, logged), a long one accepted"
}
