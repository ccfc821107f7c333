/**
 * For bench/password-runtimes.mjs: `count` Password sign-ups through `Auth()`, each one scrypt
 * derivation with the provider's defaults, timed one by one. `count` 0 is the baseline: the same
 * program, configuration and a request through `Auth()`, without a derivation.
 */
import Password from "@latch/core/providers/password"
import { Browser, expectRedirect } from "./browser.js"
import { baseConfig, logged, memoryAdapter, PASSWORD } from "./flows/config.js"

export async function hashBench(count: number): Promise<{ ms: number[] }> {
  const config = baseConfig({
    adapter: memoryAdapter(),
    providers: [
      Password({
        sendMail: () => {},
        // Every sign-up hashes: the budgets would stop a run of them from one client.
        hashing: { perClient: false, global: false },
      }),
    ],
  })
  const browser = new Browser(config)
  await browser.fetch("/auth/csrf")
  const ms: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const response = await browser.post("/auth/signup/password", {
      email: `user${i}@example.com`,
      password: PASSWORD,
    })
    ms.push(performance.now() - started)
    try {
      expectRedirect(response, "/auth/verify-request")
    } catch (error) {
      throw new Error(`${(error as Error).message} [logged: ${logged.at(-1) ?? "nothing"}]`)
    }
  }
  return { ms }
}
