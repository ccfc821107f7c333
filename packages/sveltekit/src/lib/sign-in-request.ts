/**
 * The requests of the browser helpers (`client.ts`, and `webauthn.ts`, which looks at a passkey
 * sign-in's answer before going on): a form POST answered with `{ url }`, and a sign-in's answer
 * read from that URL. Not a public module.
 */
import { actionsBase } from "./client-base.js"

/**
 * POSTs a form; the server answers `{ url }` (or `{ error }`) instead of redirecting. No CSRF
 * token: a same-origin `fetch` POST carries `Origin`, which SvelteKit's origin check and the
 * `handle` hook both require of form posts, so a token would prove nothing more and cost a
 * round trip per sign-in.
 */
export function post(path: string, fields: Record<string, unknown>, basePath?: string) {
  // A URLSearchParams body is sent as application/x-www-form-urlencoded.
  return fetch(actionsBase(basePath) + path, {
    method: "POST",
    headers: { "x-auth-return-redirect": "1" },
    body: new URLSearchParams(fields as Record<string, string>),
  })
}

/**
 * The answer of a `post`. SvelteKit's own refusal of a cross-site form post is plain text:
 * `json()` throws, with SvelteKit's message in the error, which is what a developer needs to see.
 */
export type Answer = { url?: string; error?: string }

export function go(url: string): undefined {
  location.href = url
  // A hash-only change does not load the page: reload to pick up the new session.
  if (url.includes("#")) location.reload()
}

/**
 * POSTs a sign-in to `{basePath}/signin/<provider>`, then goes where the answer says (failures
 * included) unless `redirect` is false, and returns what `signIn(…, { redirect: false })` returns
 * (client.ts's `SignInResponse`). `seen` reads the answer's `code` first (webauthn.ts tells the
 * browser of an unknown passkey). One function, as the browser bundle counts its bytes.
 */
export async function signInRequest(
  provider: string,
  fields: Record<string, unknown>,
  basePath: string | undefined,
  authorizationParams: ConstructorParameters<typeof URLSearchParams>[0],
  redirect: boolean,
  seen?: (code: string | undefined) => Promise<void>,
) {
  // Provider ids never contain "/" (the server refuses such a configuration).
  const response = await post(
    `/signin/${provider}?${new URLSearchParams(authorizationParams)}`,
    fields,
    basePath,
  )
  const { url, error: refused } = (await response.json()) as Answer
  // The URL is absolute, failures included (`?error=` and `?code=`); a request the server
  // refused outright (403 CrossSiteRequest, say) has an `error` and no URL. As an object, a
  // parameter that is not there is `undefined`, as the result's fields are.
  const { error, code }: Partial<Record<string, string>> = url
    ? Object.fromEntries(new URL(url).searchParams)
    : { error: refused }
  await seen?.(code)
  if (redirect && url) return go(url)
  return {
    ok: response.ok && !error,
    status: response.status,
    error,
    code,
    url: error ? null : url!,
  }
}
