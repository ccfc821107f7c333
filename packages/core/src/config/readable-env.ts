/**
 * Environments whose every read answers: a read the runtime refuses (Deno without `--allow-env`)
 * is an unset variable, and the refusal is kept to be told once.
 */
import type { Env } from "../types/env.js"

/** Where a readable environment keeps the message of its first refused read. */
const refusal: unique symbol = Symbol("latch.env-refusal") as never

/** A readable environment: every read answers, a refused one as unset. */
type Readable = Env & { [refusal]?: string }

const readables = new WeakMap<object, Readable>()

/**
 * `env` with every read made safe. Deno without `--allow-env` throws on any read of
 * `process.env` or `Deno.env` (`NotCapable`), and a platform's bindings may be a proxy that
 * throws too: a refused read is an unset variable here, and the first refusal's message is
 * kept for the configuration's warning (`envRefusal`), so that `Auth()` answers with its
 * configuration error (no secret, say) instead of rejecting. Reads stay live (a test's
 * `vi.stubEnv`, a variable set after start-up), and `--allow-env=AUTH_SECRET,…` works, since
 * each name is read on its own.
 */
export function readableEnv(env: Env): Env {
  if (refusalOf(env) !== undefined) return env
  const known = readables.get(env)
  if (known) return known
  const state: { message?: string } = {}
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read()
    } catch (error) {
      state.message ??= error instanceof Error ? error.message : String(error)
      return fallback
    }
  }
  // An empty target: the proxy's invariants are checked against it, never against `env` (whose
  // own traps would throw again, outside of `attempt`).
  const readable = new Proxy({} as Readable, {
    get: (_, name) =>
      name === refusal
        ? (state.message ?? "")
        : attempt(() => Reflect.get(env, name) as unknown, undefined),
    has: (_, name) => attempt(() => Reflect.has(env, name), false),
    ownKeys: () => attempt(() => Reflect.ownKeys(env), []),
    getOwnPropertyDescriptor: (_, name) => {
      const descriptor = attempt(() => Reflect.getOwnPropertyDescriptor(env, name), undefined)
      return descriptor && { ...descriptor, configurable: true }
    },
    set: (_, name, value) => attempt(() => Reflect.set(env, name, value), false),
  })
  readables.set(env, readable)
  return readable
}

/** Whether `env` is already a readable environment, without reading any variable of it. */
function refusalOf(env: Env): string | undefined {
  try {
    return (env as Readable)[refusal]
  } catch {
    return undefined
  }
}

/**
 * The message of the first read of `env` that the runtime refused (`Requires env access to
 * "AUTH_SECRET", run again with the --allow-env flag`), or `undefined`.
 */
export function envRefusal(env: Env): string | undefined {
  return refusalOf(env) || undefined
}
