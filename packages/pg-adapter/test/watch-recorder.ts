/**
 * A `SessionChangeListener` for the watch tests: records every call with its time, and waits
 * for one to arrive (or fails, saying what it was waiting for and what it got).
 */
import type { SessionChange, SessionChangeListener } from "@latch/core/adapters"

export type Event = { at: number } & ({ change: SessionChange } | { live: boolean })

/** Polls `check` until it holds; rejects after `ms` with `what`. */
export async function waitFor(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

export class Recorder implements SessionChangeListener {
  readonly events: Event[] = []

  changed(change: SessionChange): void {
    this.events.push({ at: performance.now(), change })
  }

  live(live: boolean): void {
    this.events.push({ at: performance.now(), live })
  }

  get changes(): SessionChange[] {
    return this.events.flatMap((event) => ("change" in event ? [event.change] : []))
  }

  get liveCalls(): boolean[] {
    return this.events.flatMap((event) => ("live" in event ? [event.live] : []))
  }

  /** When `changed` was first called for this stored session token (`performance.now()`). */
  sessionAt(sessionToken: string): number | undefined {
    return this.events.find(
      (e) => "change" in e && "sessionToken" in e.change && e.change.sessionToken === sessionToken,
    )?.at
  }

  hasSession(sessionToken: string): boolean {
    return this.sessionAt(sessionToken) !== undefined
  }

  hasUser(userId: string): boolean {
    return this.changes.some((c) => "userId" in c && c.userId === userId)
  }

  /** Waits for a change naming this session; fails showing what arrived instead. */
  waitForSession(sessionToken: string, ms?: number): Promise<void> {
    return this.waitFor(() => this.hasSession(sessionToken), `session ${sessionToken}`, ms)
  }

  waitForUser(userId: string, ms?: number): Promise<void> {
    return this.waitFor(() => this.hasUser(userId), `user ${userId}`, ms)
  }

  /** Waits for `live(value)` among the calls from index `from` of `liveCalls` on. */
  waitForLive(value: boolean, from = 0, ms?: number): Promise<void> {
    return this.waitFor(() => this.liveCalls.slice(from).includes(value), `live(${value})`, ms)
  }

  private async waitFor(check: () => boolean, what: string, ms?: number): Promise<void> {
    try {
      await waitFor(check, what, ms)
    } catch (error) {
      throw new Error(`${(error as Error).message}; got ${JSON.stringify(this.events)}`)
    }
  }
}
