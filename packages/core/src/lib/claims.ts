/** The user of a set of OpenID Connect standard claims (OpenID Connect Core §5.1). */
import type { User } from "../types.js"

/** The standard claims this mapping reads. */
export interface StandardClaims {
  sub?: string | null
  name?: string | null
  preferred_username?: string | null
  nickname?: string | null
  email?: string | null
  picture?: string | null
}

/** `sub` → id, `name` (else `preferred_username`, else `nickname`), `email`, `picture` → image. */
export function userFromClaims(claims: StandardClaims): User {
  return {
    id: claims.sub ?? undefined,
    name: claims.name ?? claims.preferred_username ?? claims.nickname ?? null,
    email: claims.email ?? null,
    image: claims.picture ?? null,
  }
}
