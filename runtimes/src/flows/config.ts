/** What every flow's configuration shares. */
import type { AuthConfig } from "@latch/core"
import {
  memoryAdapter,
  type MemoryAdapter,
} from "../../../packages/core/test/helpers/memory-adapter.js"

export const SECRET = "a-runtime-check-secret-that-is-long-enough-0123456789"
export const PASSWORD = "correct horse battery staple"

/** The errors `Auth()` logged: a failed step reports the last one, which says why. */
export const logged: string[] = []

export function baseConfig(
  overrides: Partial<AuthConfig> & Pick<AuthConfig, "providers">,
): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: {
      error: (error) => {
        const cause = (error as { cause?: unknown }).cause
        logged.push(`${error.name}: ${error.message}${cause ? ` (cause: ${String(cause)})` : ""}`)
      },
      warn: () => {},
      debug: () => {},
    },
    ...overrides,
  }
}

/** An in-memory database with one user whose address is proven. */
export async function withUser(email: string): Promise<{ adapter: MemoryAdapter; id: string }> {
  const adapter = memoryAdapter()
  const id = crypto.randomUUID()
  await adapter.createUser!({ id, email, name: email.split("@")[0]!, emailVerified: new Date() })
  return { adapter, id }
}

export { memoryAdapter }
