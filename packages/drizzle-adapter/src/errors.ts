/** An error of the database or of the driver, with the adapter method that failed. */
export class DrizzleAdapterError extends Error {
  /** The database's error code when there is one (`"23505"` for a PostgreSQL unique violation,
   * `"SQLITE_CONSTRAINT_FOREIGNKEY"`…), or the driver's connection error code. */
  readonly code: string | undefined

  constructor(method: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(`@latch/drizzle-adapter: ${method} failed: ${reason || "unknown error"}`, { cause })
    this.name = "DrizzleAdapterError"
    this.code = codeOf(cause)
  }
}

/** The first string `code` on the error or its causes (Drizzle wraps the driver's error). */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
