// `session.update(data)` for a form action, so that a form works without JavaScript: the action
// asks Latch's own `POST /auth/session` (through SvelteKit's `fetch`, which sends the request's
// cookies and passes the cookies it sets on to the browser), as the browser's `update` does,
// with the CSRF token of `GET /auth/csrf` (a double-submit cookie). The `jwt` (or, with database
// sessions, `session`) callback runs with `trigger: "update"`.
import type { RequestEvent } from "@sveltejs/kit"
import type { Session } from "@latch/sveltekit"

/** The updated session, or `null` when there is none (signed out) or the update failed. */
export async function updateSession(event: RequestEvent, data: unknown): Promise<Session | null> {
  const csrf = await event.fetch("/auth/csrf")
  if (!csrf.ok) return null
  const { csrfToken } = (await csrf.json()) as { csrfToken?: string }
  const response = await event.fetch("/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data }),
  })
  if (!response.ok) return null
  return (await response.json()) as Session | null
}
