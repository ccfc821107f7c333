/**
 * Publishes session changes on the channel, and remembers when one could not be: then every
 * watch of this store stops serving from its cache at once, and before anything else is
 * published (its heartbeats included, so no watch of this store serves again before it) a
 * `reset` goes out, which makes every instance drop what it cached. An instance that never
 * heard the lost change has dropped it by then.
 */
import { command, messageOf, RedisStoreError, type RedisClient } from "./client.js"
import { encode, safeMessage, type Change } from "./messages.js"

export interface Doubter {
  /** A change of this store may have been lost: stop serving until proven live again. */
  doubt(): void
}

export class Publisher {
  /** A change was lost: a `reset` is owed before anything else. */
  dirty = false
  readonly watches = new Set<Doubter>()

  constructor(
    private readonly client: RedisClient,
    readonly channel: string,
    private readonly timeoutMs: number,
  ) {}

  /** Sends `payload`, after the owed `reset` if there is one. */
  private async send(payload: string): Promise<void> {
    if (this.dirty) {
      await command(this.client, ["PUBLISH", this.channel, encode({ reset: true })], this.timeoutMs)
      this.dirty = false
    }
    await command(this.client, ["PUBLISH", this.channel, payload], this.timeoutMs)
  }

  /**
   * Publishes a change; rejects with a `RedisStoreError` when it could not be. A session token
   * that is not a hash goes out as a `reset` (see `safeMessage`).
   */
  async change(change: Change): Promise<void> {
    try {
      await this.send(encode("reset" in change ? { reset: true } : safeMessage(change)))
    } catch (error) {
      this.dirty = true
      for (const watch of this.watches) watch.doubt()
      throw new RedisStoreError(
        `a session change could not be published (${messageOf(error)}); every instance drops ` +
          "its cached sessions once Redis answers again",
        { cause: error },
      )
    }
  }

  /** A heartbeat: published only when no `reset` is owed, or once it went out. */
  async ping(payload: string): Promise<void> {
    await this.send(payload)
  }
}
