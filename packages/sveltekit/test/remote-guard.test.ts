/**
 * `guardRemoteFunctions`: remote function requests SvelteKit would answer with a 500 get a 4xx
 * first; everything SvelteKit's own client sends, and every other request, goes on untouched.
 * (The demo's fuzzer sends these against a real server: reliability/fuzz-regressions.json.)
 */
import { describe, expect, it } from "vitest"
import { guardRemoteFunctions } from "../src/lib/remote-guard.js"
import { ORIGIN, createEvent, createResolve } from "./helpers/event.js"

const ENDPOINT = "/_app/remote/1a2b3c/signInRemote"

async function guard(path: string, body: BodyInit | undefined, type?: string) {
  const headers: Record<string, string> = { origin: ORIGIN }
  if (type) headers["content-type"] = type
  const event = createEvent(path, { method: "POST", headers, body })
  const resolve = createResolve()
  const response = await guardRemoteFunctions({ event, resolve })
  return { status: response.status, resolved: resolve.mock.calls.length === 1, response }
}

const urlencoded = "application/x-www-form-urlencoded"

describe("guardRemoteFunctions", () => {
  it("lets through what SvelteKit's client sends: its binary forms, forms, commands", async () => {
    for (const [body, type] of [
      [new Uint8Array([0, 1, 2]), "application/x-sveltekit-formdata"],
      ["providerId=credentials&email=a%40b.c&password=x&redirectTo=%2F", urlencoded],
      ["tags[]=a&tags[]=b&n:age=3&b:remember=on&user.name=x&list[0]=y", urlencoded],
      [JSON.stringify({ payload: "W10=" }), "application/json"],
    ] as const) {
      const { resolved, status } = await guard(ENDPOINT, body, type)
      expect(resolved, `${type}: ${String(body)}`).toBe(true)
      expect(status).toBe(200)
    }
    const multipart = new FormData()
    multipart.set("email", "a@b.c")
    expect((await guard(ENDPOINT, multipart)).resolved).toBe(true)
  })

  it.each([
    ["a field sent twice", "redirectTo=%2Fa&redirectTo=%2Fb", urlencoded, 400],
    ["a field name that is no path", "%D7%90+%E2%80%AA%25=1", urlencoded, 400],
    ["a field named __proto__", "__proto__.polluted=1", urlencoded, 400],
    ["constructor.prototype", "constructor.prototype.x=1", urlencoded, 400],
    [
      "a truncated multipart body",
      "--x\r\ncontent-disposition: form",
      "multipart/form-data; boundary=x",
      400,
    ],
    ["a text/plain body", "providerId=credentials", "text/plain", 415],
    ["no content type", "providerId=credentials", undefined, 415],
    ["a command body that is no JSON", '{"payload":', "application/json", 400],
    ["a command body without its payload", '{"x":1}', "application/json", 400],
  ])("refuses %s", async (_, body, type, expected) => {
    const { status, resolved, response } = await guard(ENDPOINT, body, type)
    expect(resolved).toBe(false)
    expect(status).toBe(expected)
    expect(await response.json()).toMatchObject({ error: "InvalidRequest" })
  })

  it("refuses a form key that is no JSON, takes one that is", async () => {
    const form = "email=a%40b.c"
    expect((await guard(`${ENDPOINT}/%EF%BF%BD%00`, form, urlencoded)).status).toBe(400)
    expect((await guard(`${ENDPOINT}/x`, form, urlencoded)).status).toBe(400)
    expect(
      (await guard(`${ENDPOINT}/${encodeURIComponent('"note-1"')}`, form, urlencoded)).resolved,
    ).toBe(true)
    // Without JavaScript, the form posts to its page with the id (and key) in the query.
    expect((await guard(`/remote?/remote=1a2b3c/signInRemote/x`, form, urlencoded)).status).toBe(
      400,
    )
    expect((await guard(`/remote?/remote=1a2b3c/signInRemote/42`, form, urlencoded)).resolved).toBe(
      true,
    )
    expect((await guard(`/remote?/remote=1a2b3c/signInRemote`, "a=1&a=2", urlencoded)).status).toBe(
      400,
    )
  })

  it("leaves every other request alone", async () => {
    for (const path of [
      "/signin",
      "/auth/callback/credentials",
      "/remote?/default",
      "/_app/version.json",
    ]) {
      const { resolved } = await guard(path, "a=1&a=2", urlencoded)
      expect(resolved, path).toBe(true)
    }
    const event = createEvent(`${ENDPOINT}?payload=x`)
    const resolve = createResolve()
    await guardRemoteFunctions({ event, resolve })
    expect(resolve).toHaveBeenCalledOnce()
  })
})
