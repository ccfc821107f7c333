/**
 * Types an app written for `@auth/sveltekit` 1.11.3 relies on. Checked by `pnpm run typecheck`
 * (svelte-check covers test/); the functions below are never called.
 */
import type { Session } from "@latch/core/types"
import type { Action, RequestEvent } from "@sveltejs/kit"
import type { ComponentProps } from "svelte"
import { describe, expectTypeOf, it } from "vitest"
import {
  signIn,
  signOut,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutParams,
  type SignOutResponse,
} from "../src/lib/client.js"
import { SignIn, SignOut } from "../src/lib/components/index.js"
import { SvelteKitAuth, type SvelteKitAuthConfig } from "../src/lib/index.js"
import { signIn as signInWithPasskey } from "../src/lib/webauthn.js"

describe("@latch/sveltekit/client", () => {
  it("types signIn's outcome by `redirect`, as Auth.js does", () => {
    async function app() {
      const result = await signIn("credentials", { username: "a", password: "b", redirect: false })
      expectTypeOf(result).toEqualTypeOf<SignInResponse>()
      expectTypeOf(result.error).toEqualTypeOf<string | undefined>()
      expectTypeOf(result.code).toEqualTypeOf<string | undefined>()
      expectTypeOf(result.url).toEqualTypeOf<string | null>()
      expectTypeOf(signIn("github")).toEqualTypeOf<Promise<void>>()
      expectTypeOf(signIn("github", { redirectTo: "/x" })).toEqualTypeOf<Promise<void>>()
      expectTypeOf(signIn()).toEqualTypeOf<Promise<void>>()
      // @ts-expect-error -- with a redirect there is no outcome to read
      void (await signIn("github")).ok
      const passkey = await signInWithPasskey("passkey", { redirect: false, action: "register" })
      expectTypeOf(passkey).toEqualTypeOf<SignInResponse>()
      expectTypeOf(signOut()).toEqualTypeOf<Promise<void>>()
      expectTypeOf(signOut({ redirect: false })).toEqualTypeOf<Promise<SignOutResponse>>()
      expectTypeOf((await signOut({ redirect: false, redirectTo: "/" })).url).toBeString()
    }
    expectTypeOf(app).toBeFunction()
  })

  it("takes authorizationParams in every form URLSearchParams takes", () => {
    expectTypeOf<SignInAuthorizationParams>().toEqualTypeOf<
      string | string[][] | Record<string, string> | URLSearchParams
    >()
    function app() {
      void signIn("github", {}, "prompt=login")
      void signIn("github", {}, [["prompt", "login"]])
      void signIn("github", {}, { prompt: "login" })
      void signIn("github", undefined, new URLSearchParams({ prompt: "login" }))
      void signInWithPasskey("github", {}, new URLSearchParams({ prompt: "login" }))
    }
    expectTypeOf(app).toBeFunction()
  })

  it("has Auth.js's option types, callbackUrl included", () => {
    expectTypeOf<{ callbackUrl: string; redirect: false }>().toExtend<SignInOptions<false>>()
    expectTypeOf<{ redirectTo: string }>().toExtend<SignInOptions>()
    expectTypeOf<{ callbackUrl: string; redirect: false }>().toExtend<SignOutParams<false>>()
    expectTypeOf<SignOutParams["redirectTo"]>().toEqualTypeOf<string | undefined>()
  })
})

describe("@latch/sveltekit/components", () => {
  type SignInProps = ComponentProps<typeof SignIn>
  type SignOutProps = ComponentProps<typeof SignOut>

  it("takes authorizationParams in every form URLSearchParams takes", () => {
    expectTypeOf<URLSearchParams>().toExtend<SignInProps["authorizationParams"]>()
    expectTypeOf<string>().toExtend<SignInProps["authorizationParams"]>()
    expectTypeOf<string[][]>().toExtend<SignInProps["authorizationParams"]>()
    expectTypeOf<Record<string, string>>().toExtend<SignInProps["authorizationParams"]>()
  })

  it("takes options as a FormData or a record", () => {
    expectTypeOf<FormData>().toExtend<SignInProps["options"]>()
    expectTypeOf<FormData>().toExtend<SignOutProps["options"]>()
    expectTypeOf<{ redirectTo: string; redirect: boolean; n: number }>().toExtend<
      SignInProps["options"]
    >()
    expectTypeOf<{ redirectTo: string; redirect: false }>().toExtend<SignOutProps["options"]>()
  })
})

describe("App namespace", () => {
  it("declares locals.getSession (deprecated) next to locals.auth", () => {
    expectTypeOf<App.Locals["getSession"]>().toEqualTypeOf<() => Promise<Session | null>>()
    expectTypeOf<App.Locals["auth"]>().toEqualTypeOf<() => Promise<Session | null>>()
  })

  it("declares PageData.session for $page.data.session", () => {
    expectTypeOf<App.PageData["session"]>().toEqualTypeOf<Session | null | undefined>()
  })
})

describe("SvelteKitAuth", () => {
  it("takes a configuration or a function of the event returning a PromiseLike of one", () => {
    const config: SvelteKitAuthConfig = { providers: [] }
    const thenable = (_event: RequestEvent): PromiseLike<SvelteKitAuthConfig> => ({
      then: (resolve) => Promise.resolve(config).then(resolve),
    })
    const { signIn: action } = SvelteKitAuth(thenable)
    expectTypeOf(action).toExtend<Action>()
  })
})
