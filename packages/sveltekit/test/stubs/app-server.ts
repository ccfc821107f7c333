// Stands in for SvelteKit's `$app/server` in unit tests: `getRequestEvent` answers the event a
// test sets, and `form` returns its callback, so a test can submit the fields SvelteKit would
// have parsed. The real functions run in the e2e against the demo.
import type { RequestEvent } from "@sveltejs/kit"

let current: RequestEvent | undefined
export function setRequestEvent(event: RequestEvent | undefined): void {
  current = event
}
export function getRequestEvent(): RequestEvent {
  if (!current) throw new Error("getRequestEvent() called outside a request")
  return current
}
export function form<Input, Output>(
  _validate: "unchecked",
  fn: (data: Input) => Promise<Output>,
): { submit: (data: Input) => Promise<Output> } {
  return { submit: fn }
}
