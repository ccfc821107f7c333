/** Calls into the adapter: a failure becomes an `AdapterError` carrying the database's error. */
import { AdapterError, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"

/** Runs an adapter method; its failure is an `AdapterError` with the cause. */
export async function callAdapter<T>(method: string, run: () => PromiseLike<T> | T): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new AdapterError(`adapter.${method} failed`, { cause: error })
  }
}

/**
 * The adapter with the methods a feature needs, or `MissingAdapterMethods` naming those missing
 * and what to do: `hint`, or by default, adding them to the adapter.
 */
export function requireMethods<M extends keyof Adapter>(
  adapter: Adapter,
  methods: readonly M[],
  feature: string,
  hint = `add ${methods.length > 1 ? "them" : "it"} to your adapter (@latch/pg-adapter has every method Latch uses)`,
): Adapter & Required<Pick<Adapter, M>> {
  const missing = methods.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(
      `The adapter lacks ${missing.join(", ")}, needed for ${feature}: ${hint}.`,
    )
  }
  return adapter as Adapter & Required<Pick<Adapter, M>>
}
