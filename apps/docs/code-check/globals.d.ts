// The names the docs' code blocks use without defining them: what the surrounding prose says they
// are (the app's configuration, the request being answered, the app's database pool, its own
// user lookup…). Declared once here, as globals, so that a block reads as the reader's code does;
// a block that defines or imports one of these names shadows it. Only types: nothing here runs.
// How the check uses this file: apps/docs/README.md.

/** The app's configuration (`AuthConfig`), as set up on the page. */
declare const config: import("@latch/core").AuthConfig
/** The request being answered (core's handlers). */
declare const request: Request
/** The app's PostgreSQL pool. */
declare const pool: import("pg").Pool
/** Any adapter the page's configuration uses. */
declare const adapter: import("@latch/core/adapters").Adapter
/** The configuration's providers. */
declare const providers: import("@latch/core").AuthConfig["providers"]
/** A user id of the app. */
declare const userId: string
/** The app's own user lookup and password check (a Credentials provider's `authorize`). */
declare function findUser(
  username: string,
  password: string,
): Promise<import("@latch/core/types").User | null>
declare function findUserByEmail(
  email: string,
): Promise<(import("@latch/core/types").User & { id: string; locked?: boolean }) | null>
declare function verifyUser(
  username: string,
  password: string,
): Promise<import("@latch/core/types").User | null>
declare function verifyPassword(
  user: import("@latch/core/types").User,
  password: string,
): Promise<boolean>
/** The app's own logger (docs/errors.md's "Logging"). */
declare const myLogger: { error(data: unknown): void; warn(data: unknown): void }
/** A set of known-breached passwords (a password policy's `isBreached`). */
declare const breached: Set<string>

/** SvelteKit's generated route types (`./$types`), as every route's folder has them. */
declare module "$types" {
  import type * as Kit from "@sveltejs/kit"
  export type PageServerLoad = Kit.ServerLoad
  export type LayoutServerLoad = Kit.ServerLoad
  export type PageLoad = Kit.Load
  export type LayoutLoad = Kit.Load
  export type Actions = Kit.Actions
  export type RequestHandler = Kit.RequestHandler
  export type PageData = Record<string, any>
  export type LayoutData = Record<string, any>
  export type ActionData = Record<string, any> | undefined
  export type PageProps = { data: PageData; form: ActionData }
  export type LayoutProps = { data: LayoutData; children: import("svelte").Snippet }
}

/** The app's `src/auth.ts` as the pages set it up: everything `SvelteKitAuth()` returns. */
declare module "$auth" {
  type Auth = import("@latch/sveltekit").SvelteKitAuthResult
  export const handle: Auth["handle"]
  export const signIn: Auth["signIn"]
  export const signOut: Auth["signOut"]
  export const signUp: Auth["signUp"]
  export const requestPasswordReset: Auth["requestPasswordReset"]
  export const setNewPassword: Auth["setNewPassword"]
  export const changePassword: Auth["changePassword"]
  export const removeSignInMethod: Auth["removeSignInMethod"]
  export const renamePasskey: Auth["renamePasskey"]
  export const verifyTwoFactor: Auth["verifyTwoFactor"]
  export const confirmTwoFactorSetup: Auth["confirmTwoFactorSetup"]
  export const disableTwoFactor: Auth["disableTwoFactor"]
  export const regenerateRecoveryCodes: Auth["regenerateRecoveryCodes"]
  export const reauthenticate: Auth["reauthenticate"]
  export const startPasskeySignUp: Auth["startPasskeySignUp"]
  export const confirmPasskeySignUp: Auth["confirmPasskeySignUp"]
}

/** The app's database module, as the pages name it. */
declare module "$lib/server/db" {
  export const adapter: import("@latch/core/adapters").Adapter
}

/** The messages module the password recipe writes (src/lib/auth-messages.ts). */
declare module "$lib/auth-messages" {
  export function message(code: string): string
}

/** Cloudflare's bindings, as an app on adapter-cloudflare declares them in `src/app.d.ts`. */
declare namespace App {
  interface Platform {
    env: Record<string, any>
  }
}
