/**
 * Running `SvelteKitAuth`'s form actions as a page's actions get them, and reading what they
 * did: the redirect they threw, the value they returned, a helper called on a page after the
 * handle.
 */
import { isRedirect } from "@sveltejs/kit"
import { Browser, ORIGIN, type EventInit, type TestEvent } from "./event.js"

/** Runs a form action for `browser`, as a page's action; returns what it returned or threw. */
export async function submit<T>(
  browser: Browser,
  action: (event: TestEvent, fields?: Record<string, unknown>) => Promise<T>,
  path: string,
  form: Record<string, string>,
  init: EventInit = {},
): Promise<{ result?: T; thrown?: unknown; event: TestEvent }> {
  const event = browser.event(path, { form, headers: { origin: ORIGIN }, ...init })
  try {
    return { result: await action(event), event }
  } catch (thrown) {
    return { thrown, event }
  } finally {
    browser.store({ response: new Response(), event })
  }
}

/** What a redirect thrown by an action says, resolved on ORIGIN; anything else is rethrown. */
export function redirectOf(thrown: unknown) {
  if (!isRedirect(thrown)) throw thrown ?? new Error("the action did not redirect")
  return { status: thrown.status, url: new URL(thrown.location, ORIGIN) }
}

/** Calls `helper` with a page request's event, after the handle. */
export async function onPage<T>(
  browser: Browser,
  helper: (event: TestEvent) => Promise<T>,
): Promise<T> {
  let value: T | undefined
  await browser.fetch("/settings", {}, async (event) => {
    value = await helper(event)
  })
  return value as T
}
