/**
 * Production by default: the program sets no `NODE_ENV` (and Deno without `--allow-env`, or
 * workerd, has none to read), so a short secret must be refused, with a configuration error
 * answered (never a rejection of `Auth()`) and logged, and a long one accepted.
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
  const strong = new Browser(baseConfig({ providers }))
  const accepted = await strong.fetch("/auth/session")
  check(accepted.status === 200, `a long secret answered ${accepted.status}`)
  return "a 5-character secret refused (500, logged), a long one accepted"
}
