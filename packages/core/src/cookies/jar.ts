/**
 * The cookies of one request: what came in, parsed once on first use, and what goes out,
 * collected as data and serialised only when the response is built.
 */
import { parseCookie } from "cookie"
import type { Cookie, CookieSerializeOptions } from "../types.js"
import { chunkIndex, chunkSize, joinChunks, splitValue } from "./chunks.js"

export class CookieJar {
  #header: string | null
  #incoming: Record<string, string | undefined> | undefined
  #outgoing = new Map<string, Cookie>()

  constructor(header: string | null) {
    this.#header = header
  }

  /** Every incoming cookie by name. */
  get all(): Record<string, string | undefined> {
    this.#incoming ??= this.#header ? parseCookie(this.#header) : {}
    return this.#incoming
  }

  /** One incoming cookie. */
  get(name: string): string | undefined {
    return this.all[name]
  }

  /** An incoming value that may be split into chunks. */
  getChunked(name: string): string | undefined {
    return joinChunks(this.all, name)
  }

  /** Sets a cookie; a second write to the same name replaces the first. */
  set(name: string, value: string, options: CookieSerializeOptions): void {
    this.#outgoing.set(name, { name, value, options })
  }

  /** Deletes a cookie: an empty value that expired at the epoch. */
  delete(name: string, options: CookieSerializeOptions): void {
    const { maxAge: _maxAge, ...rest } = options
    this.#outgoing.set(name, {
      name,
      value: "",
      options: { ...rest, maxAge: 0, expires: new Date(0) },
    })
  }

  /**
   * Sets a value that may need several cookies, and deletes whatever the browser holds under
   * that name that the new value does not overwrite (the plain cookie, or extra chunks).
   */
  setChunked(name: string, value: string, options: CookieSerializeOptions): void {
    const chunks = splitValue(value, chunkSize(name, options))
    const written = new Set<string>()
    if (chunks.length === 1) {
      this.set(name, value, options)
      written.add(name)
    } else {
      chunks.forEach((chunk, index) => {
        this.set(`${name}.${index}`, chunk, options)
        written.add(`${name}.${index}`)
      })
    }
    for (const existing of this.#namesOf(name))
      if (!written.has(existing)) this.delete(existing, options)
  }

  /** Deletes a value and all of its chunks that the browser sent. */
  deleteChunked(name: string, options: CookieSerializeOptions): void {
    const names = this.#namesOf(name)
    if (names.length === 0) names.push(name)
    for (const existing of names) this.delete(existing, options)
  }

  /** Whether the browser sent the value under `name` or any of its chunks. */
  hasChunked(name: string): boolean {
    return this.#namesOf(name).length > 0
  }

  /** The cookies to send, in the order they were set. */
  toArray(): Cookie[] {
    return [...this.#outgoing.values()]
  }

  #namesOf(name: string): string[] {
    return Object.keys(this.all).filter(
      (cookieName) => cookieName === name || chunkIndex(cookieName, name) >= 0,
    )
  }
}
