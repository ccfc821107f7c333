/**
 * The two versions of Latch side by side in one process: the last release, loaded from its
 * build (see lib/release.mjs), and this checkout's packages. Each is a separate module graph
 * with its own dependencies (the release's from its own lockfile), as two deployments of an app
 * would have.
 */
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/** What the tests use of a version of @latch/core and @latch/pg-adapter. */
export interface Latch {
  version: string
  Auth: (request: Request, config: any) => Promise<Response>
  customFetch: symbol
  GitHub: (options: any) => any
  Email: (options: any) => any
  Passkey: (options?: any) => any
  Credentials: (options: any) => any
  PostgresAdapter: (client: any) => any
  migrate: (client: any) => Promise<void>
}

/** The release built under `root` (an unpacked repository). */
export async function releaseLatch(root: string, version: string): Promise<Latch> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href)
  const core = await load("packages/core/dist/index.js")
  const adapter = await load("packages/pg-adapter/dist/index.js")
  return {
    version,
    Auth: core.Auth,
    customFetch: core.customFetch,
    GitHub: (await load("packages/core/dist/providers/github.js")).default,
    Email: (await load("packages/core/dist/providers/email.js")).default,
    Passkey: (await load("packages/core/dist/providers/passkey.js")).default,
    Credentials: (await load("packages/core/dist/providers/credentials.js")).default,
    PostgresAdapter: adapter.PostgresAdapter,
    migrate: adapter.migrate,
  }
}

/** This checkout's packages, as an app installs them. */
export async function currentLatch(): Promise<Latch> {
  const core = await import("@latch/core")
  const adapter = await import("@latch/pg-adapter")
  return {
    version: "this checkout",
    Auth: core.Auth as Latch["Auth"],
    customFetch: core.customFetch,
    GitHub: (await import("@latch/core/providers/github")).default,
    Email: (await import("@latch/core/providers/email")).default,
    Passkey: (await import("@latch/core/providers/passkey")).default,
    Credentials: (await import("@latch/core/providers/credentials")).default,
    PostgresAdapter: adapter.PostgresAdapter,
    migrate: adapter.migrate,
  }
}
