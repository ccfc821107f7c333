import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readMailbox, startMailApi } from "../index.js"

let api
let dir
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "latch-mail-api-"))
  api = await startMailApi({ dir, apiKey: "re_test_key" })
})
afterAll(async () => {
  await api.close()
  rmSync(dir, { recursive: true, force: true })
})

const send = (body, key = "re_test_key") =>
  fetch(`${api.url}/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })

describe("the mailbox's Resend-speaking API", () => {
  it("keeps a mail sent with the right key, where the mailbox page reads", async () => {
    const response = await send({
      from: "Demo <no-reply@latch.test>",
      to: ["ann@example.com"],
      subject: "Sign in",
      html: "<a href='https://x.example/cb'>Sign in</a>",
      text: "https://x.example/cb",
    })
    expect(response.status).toBe(200)
    expect((await response.json()).id).toMatch(/^[0-9a-f-]{36}$/)
    const [mail] = readMailbox(dir)
    expect(mail).toMatchObject({
      envelope: { to: ["ann@example.com"] },
      subject: "Sign in",
      text: "https://x.example/cb",
    })
  })

  it("answers Resend's errors: a wrong key, a missing field", async () => {
    const wrong = await send({ from: "a@b.c", to: "x@y.z", subject: "s", text: "t" }, "nope")
    expect(wrong.status).toBe(403)
    expect(await wrong.json()).toMatchObject({ name: "invalid_api_key" })
    const missing = await send({ from: "a@b.c", to: "x@y.z", text: "t" })
    expect(missing.status).toBe(422)
    expect(await missing.json()).toMatchObject({ name: "validation_error" })
    expect(api.messages).toHaveLength(1)
  })
})
