/**
 * The shape of a case, shared by the suite (`cases.ts`) and each group of cases it defines
 * (`*-cases.ts`), which therefore need not import the suite that imports them.
 */
import type { Adapter } from "@latch/core/adapters"

/** The adapter under test, every method present (a case checks first what it needs). */
export type Full = Required<Adapter>
/** A case: the adapter, and `skip(why)` for a case that does not apply to it. */
export type Case = (adapter: Full, skip: (why: string) => void) => Promise<void>
export type DefineCase = (title: string, test: Case) => void
