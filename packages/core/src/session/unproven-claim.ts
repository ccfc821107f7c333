/**
 * The claim that marks a JWT session issued to an unproven account (`account/unproven.ts`). A
 * module of its own so that reading a session (`jwt-strategy.ts`) loads nothing more unless the
 * mark is there.
 */
export const UNPROVEN_CLAIM = "latchUnproven"
