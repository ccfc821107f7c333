/**
 * The dependency key of loads that return the session. The live session (`@latch/sveltekit/session`)
 * calls `invalidate(SESSION_DEPENDENCY)` when it learns of a change, which re-runs exactly the
 * loads that called `depends(SESSION_DEPENDENCY)` — `loadSession` does — and no others.
 */
export const SESSION_DEPENDENCY = "latch:session"
