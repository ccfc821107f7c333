// Small helper types every other module of types builds on.

/** Values that may be returned synchronously or as a promise. */
export type Awaitable<T> = T | PromiseLike<T>

/** The value a promise resolves to (or the type itself when it is not a promise). */
export type Awaited<T> = T extends Promise<infer U> ? U : T

/** A version string: `v1`, `v1.2` or `v1.2.3`. */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`
