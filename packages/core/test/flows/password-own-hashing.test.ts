/**
 * `Password({ hash, verify })`: a deployer's own hashing (here argon2id, from @noble/hashes, with
 * small parameters) through `Auth()`: sign-up and its link, sign-in, reset by link, change of
 * password; hashes of the default scrypt made again by `hash` after a sign-in; the same work for
 * an address without an account; the process's limiter around the deployer's functions; and
 * functions that misbehave answered as a configuration error.
 */
import { argon2idAsync } from "@noble/hashes/argon2.js"
import { timingSafeEqual } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import { hashPassword } from "../../src/password/hash.js"
import Password, {
  type PasswordMail,
  type PasswordOptions,
  type PasswordVerification,
} from "../../src/providers/password.js"
import type { AuthConfig } from "../../src/types.js"
import { followLink } from "../helpers/continue-page.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"
import { Browser, SECRET } from "../helpers/request.js"

const FAST = { ln: 10, r: 8, p: 1 }
const GOOD = "correct horse battery"
const PREFIX = "$argon2id$m=64,t=2,p=1$"

/** argon2id with a test's cost (64 KiB), in a format of the deployer's own. */
async function argon2Hash(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const key = await argon2idAsync(password, salt, { m: 64, t: 2, p: 1, dkLen: 32 })
  return `${PREFIX}${Buffer.from(salt).toString("base64")}$${Buffer.from(key).toString("base64")}`
}

async function argon2Verify(password: string, stored: string): Promise<PasswordVerification> {
  const [salt, key] = stored
    .slice(PREFIX.length)
    .split("$")
    .map((b) => Buffer.from(b!, "base64"))
  const derived = await argon2idAsync(password, salt!, { m: 64, t: 2, p: 1, dkLen: 32 })
  return timingSafeEqual(derived, key!)
}

let counter = 0
const newAddress = () => `own${++counter}-${Date.now()}@example.com`

function setup(options: PasswordOptions = {}) {
  const adapter = memoryAdapter()
  const mails: PasswordMail[] = []
  const hash = vi.fn(argon2Hash)
  const verify = vi.fn(argon2Verify)
  const errors = vi.fn()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [Password({ hash, verify, sendMail: (mail) => void mails.push(mail), ...options })],
    logger: { error: errors, warn: () => {}, debug: () => {} },
  }
  return { adapter, config, mails, hash, verify, errors }
}

/** The link of the last mail sent to `to`. */
function lastLink(mails: PasswordMail[], to: string): string {
  const mail = mails.findLast((m) => m.to === to)
  const link = new URL(/https?:\/\/\S+/.exec(mail!.text)![0])
  return `${link.pathname}${link.search}`
}

async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  const response = await browser.fetch(path, { form: { csrfToken, ...form } })
  return { response, location: new URL(response.headers.get("location")!) }
}

const signIn = async (config: AuthConfig, email: string, password: string) => {
  const browser = new Browser(config)
  const { location } = await post(browser, "/auth/callback/password", { email, password })
  return { browser, location }
}

async function account(adapter: MemoryAdapter, email: string, stored: string) {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date("2026-01-01"),
  })
  adapter.passwords.set(user.id, stored)
  return user
}

describe("Password({ hash, verify })", () => {
  it("hashes a sign-up's password with `hash`, and signs in with `verify`", async () => {
    const { adapter, config, mails, hash, verify } = setup()
    const email = newAddress()
    // NFKC: the ligature "ﬁ" is "fi" to both functions.
    const browser = new Browser(config)
    await post(browser, "/auth/signup/password", { email, password: `${GOOD} ﬁne` })
    expect(hash).toHaveBeenCalledWith(`${GOOD} fine`)
    await followLink(browser, lastLink(mails, email))
    expect(await browser.session()).not.toBeNull()
    const user = await adapter.getUserByEmail!(email)
    expect(adapter.passwords.get(user!.id)).toMatch(/^\$argon2id\$/)

    verify.mockClear()
    expect((await signIn(config, email, `${GOOD} fine`)).location.searchParams.get("error")).toBe(
      null,
    )
    expect(verify).toHaveBeenCalledWith(`${GOOD} fine`, adapter.passwords.get(user!.id))
    const wrong = await signIn(config, email, `${GOOD} fin`)
    expect(wrong.location.searchParams.get("code")).toBe("credentials")
  })

  it("calls `hash` for an address without an account, as `verify` would cost for one", async () => {
    const { adapter, config, hash, verify } = setup()
    const known = newAddress()
    await account(adapter, known, await argon2Hash(GOOD))
    hash.mockClear()

    const unknown = await signIn(config, newAddress(), GOOD)
    expect(unknown.location.searchParams.get("code")).toBe("credentials")
    expect([hash.mock.calls.length, verify.mock.calls.length]).toEqual([1, 0])

    hash.mockClear()
    const wrong = await signIn(config, known, "not the password")
    expect(wrong.location.searchParams.get("code")).toBe("credentials")
    expect([hash.mock.calls.length, verify.mock.calls.length]).toEqual([0, 1])
  })

  it("moves hashes of the default scrypt over to `hash` at sign-in, without `verify`", async () => {
    // One slot: Latch's check of the old hash must not wait for a second one.
    const { adapter, config, verify } = setup({ hashing: { concurrency: 1, queue: 0 } })
    const email = newAddress()
    const scrypt = await hashPassword(GOOD)
    const user = await account(adapter, email, scrypt)

    expect((await signIn(config, email, "wrong one")).location.searchParams.get("code")).toBe(
      "credentials",
    )
    expect(adapter.passwords.get(user.id)).toBe(scrypt)

    expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    expect(verify).not.toHaveBeenCalled()
    const rehashed = adapter.passwords.get(user.id)!
    expect(rehashed).toMatch(/^\$argon2id\$/)
    expect(await argon2Verify(GOOD, rehashed)).toBe(true)
    expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    expect(adapter.passwords.get(user.id)).toBe(rehashed)
    expect(verify).toHaveBeenCalledTimes(1)
  })

  it("makes a hash again with `hash` when `verify` says so, after a match only", async () => {
    const { adapter, config, verify } = setup()
    verify.mockImplementation(async (password, stored) => ({
      ok: (await argon2Verify(password, stored)) === true,
      needsRehash: stored.startsWith("$argon2id$m=64,t=2,p=1$") && password === GOOD,
    }))
    const email = newAddress()
    const first = await argon2Hash(GOOD)
    const user = await account(adapter, email, first)
    expect((await signIn(config, email, "wrong one")).location.searchParams.get("code")).toBe(
      "credentials",
    )
    expect(adapter.passwords.get(user.id)).toBe(first)
    expect((await signIn(config, email, GOOD)).location.searchParams.get("error")).toBeNull()
    const second = adapter.passwords.get(user.id)!
    expect(second).not.toBe(first)
    expect(await argon2Verify(GOOD, second)).toBe(true)
  })

  it("sets a new password by a reset link with `hash`", async () => {
    const { adapter, config, mails } = setup()
    const email = newAddress()
    const user = await account(adapter, email, await argon2Hash("the old password"))
    await post(new Browser(config), "/auth/reset-password/password", { email })
    const link = new URL(lastLink(mails, email), "http://localhost")
    const token = link.searchParams.get("token")!
    const browser = new Browser(config)
    await post(browser, "/auth/new-password/password", { token, password: GOOD })
    expect(await browser.session()).not.toBeNull()
    expect(await argon2Verify(GOOD, adapter.passwords.get(user.id)!)).toBe(true)
    expect(
      (await signIn(config, email, "the old password")).location.searchParams.get("code"),
    ).toBe("credentials")
  })

  it("changes a password: the current one by `verify`, the new one by `hash`", async () => {
    const { adapter, config, verify } = setup()
    const email = newAddress()
    const user = await account(adapter, email, await argon2Hash("the old password"))
    const { browser } = await signIn(config, email, "the old password")
    verify.mockClear()
    const change = (currentPassword: string) =>
      post(browser, "/auth/change-password/password", { currentPassword, password: GOOD })
    expect((await change("not it")).location.searchParams.get("code")).toBe("wrong_password")
    expect((await change("the old password")).location.searchParams.get("error")).toBeNull()
    expect(verify).toHaveBeenCalledTimes(2)
    expect(await argon2Verify(GOOD, adapter.passwords.get(user.id)!)).toBe(true)
  })

  it("waits in the process's limiter: past its queue, refused before `verify` runs", async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const { adapter, config, verify } = setup({ hashing: { concurrency: 1, queue: 0 } })
    verify.mockImplementation(async (password, stored) => {
      await gate
      return argon2Verify(password, stored)
    })
    const email = newAddress()
    await account(adapter, email, await argon2Hash(GOOD))
    const first = signIn(config, email, GOOD)
    await vi.waitFor(() => expect(verify).toHaveBeenCalledTimes(1))
    const second = await signIn(config, email, GOOD)
    expect(second.location.searchParams.get("code")).toBe("busy")
    expect(verify).toHaveBeenCalledTimes(1)
    release()
    expect((await first).location.searchParams.get("error")).toBeNull()
  })

  it("answers functions that throw or misbehave as a configuration error, logged", async () => {
    const email = newAddress()
    const throwing = setup()
    await account(throwing.adapter, email, await argon2Hash(GOOD))
    throwing.verify.mockRejectedValue(new Error("the hashing service is down"))
    const down = await signIn(throwing.config, email, GOOD)
    expect(down.location.searchParams.get("error")).toBe("Configuration")
    expect(String(throwing.errors.mock.calls.flat().map((e) => e?.cause ?? e))).toMatch(
      /hashing service is down/,
    )

    const odd = setup()
    await account(odd.adapter, email, await argon2Hash(GOOD))
    odd.verify.mockResolvedValue("yes" as never)
    const answer = await signIn(odd.config, email, GOOD)
    expect(answer.location.searchParams.get("error")).toBe("Configuration")
    expect(String(odd.errors.mock.calls.flat().map((e) => e?.cause ?? e))).toMatch(
      /verify must return a promise of a boolean/,
    )

    for (const made of ["", "$scrypt$ln=15,r=8,p=3$a$b"]) {
      const bad = setup()
      bad.hash.mockResolvedValue(made)
      const signUp = await post(new Browser(bad.config), "/auth/signup/password", {
        email: newAddress(),
        password: GOOD,
      })
      expect(signUp.location.searchParams.get("error")).toBe("Configuration")
      expect(String(bad.errors.mock.calls.flat())).toMatch(/Password\(\): hash must/)
    }
  })

  it("refuses half of the pair, and scrypt's parameters beside it, at configuration", () => {
    expect(() => Password({ hash: argon2Hash })).toThrow(/hash and verify go together/)
    expect(() => Password({ verify: argon2Verify })).toThrow(/hash and verify go together/)
    expect(() => Password({ hash: argon2Hash, verify: argon2Verify, scrypt: FAST })).toThrow(
      /give one or the other/,
    )
  })
})
