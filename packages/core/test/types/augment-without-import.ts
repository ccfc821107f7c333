/**
 * Augmentations written as in an Auth.js app that names the default types without importing
 * them: inside `declare module "@latch/core/types"` (or `/jwt`) the module's own declarations are
 * in scope, so `DefaultSession`, `DefaultUser` and `DefaultJWT` must be declared in those modules,
 * not only re-exported. Type-checked by `pnpm run typecheck`; the `@ts-expect-error` lines keep the
 * file from passing by the types turning into `any`.
 */
import type { Session, User } from "@latch/core/types"
import type { JWT } from "@latch/core/jwt"

declare module "@latch/core/types" {
  interface Session {
    owner?: { plan?: "free" | "team" } & DefaultSession["user"]
  }
  interface User {
    team?: DefaultUser["name"]
  }
}

declare module "@latch/core/jwt" {
  interface JWT {
    plan?: "free" | "team"
    previousEmail?: DefaultJWT["email"]
  }
}

declare const session: Session
declare const user: User
declare const token: JWT

export const plan: "free" | "team" | undefined = session.owner?.plan
export const email: string | null | undefined = session.owner?.email
export const team: string | null | undefined = user.team
export const claim: "free" | "team" | undefined = token.plan
export const previous: string | null | undefined = token.previousEmail
// @ts-expect-error: the augmented field keeps its type
export const wrong: number | undefined = session.owner?.plan
