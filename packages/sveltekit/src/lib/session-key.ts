/**
 * The dependency key of loads that return the session. The live session (`@latch/sveltekit/session`)
 * calls `invalidate(SESSION_DEPENDENCY)` when it learns that the session's expiry moved, which
 * re-runs exactly the loads that called `depends(SESSION_DEPENDENCY)` — `loadSession` does — and
 * no others; when the user changed, it re-runs every load (`invalidateAll()`).
 */
export const SESSION_DEPENDENCY = "latch:session"
