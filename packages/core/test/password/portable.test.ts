/**
 * Password hashing on every runtime: RFC 7914's test vectors on both implementations of scrypt
 * (node:crypto's and the portable one, each forced in turn), hashes made on one verified on the
 * other with the default parameters, and the hashing module bundled for a runtime with neither
 * `node:crypto` nor `Buffer` nor `process` (Cloudflare Workers without `nodejs_compat`), run in a
 * Node.js process stripped of them.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { decodeBase64, encodeBase64, sameBytes } from "../../src/password/bytes.js"
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from "../../src/password/hash.js"
import {
  deriveScrypt,
  scryptBackend,
  useScryptBackend,
  type ScryptBackend,
} from "../../src/password/scrypt.js"
import { tablesAllocated } from "../../src/password/romix.js"

afterEach(() => useScryptBackend(undefined))

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const utf8 = (text: string) => new TextEncoder().encode(text)

/**
 * RFC 7914 §12. Its fourth vector (N = 2^20, 1 GiB) is left out: four times the most Latch lets a
 * stored hash ask for (`MAX_SCRYPT_MEMORY`).
 */
const VECTORS = [
  {
    password: "",
    salt: "",
    params: { ln: 4, r: 1, p: 1 },
    key: "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906",
  },
  {
    password: "password",
    salt: "NaCl",
    params: { ln: 10, r: 8, p: 16 },
    key: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
  },
  {
    password: "pleaseletmein",
    salt: "SodiumChloride",
    params: { ln: 14, r: 8, p: 1 },
    key: "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887",
  },
]

const BACKENDS: ScryptBackend[] = ["node", "portable"]

describe.each(BACKENDS)("scrypt on the %s path", (backend) => {
  it.each(VECTORS.map((v) => [v.password || '""', v] as const))(
    "derives RFC 7914's vector for %s",
    async (_, vector) => {
      useScryptBackend(backend)
      const key = await deriveScrypt(
        vector.password,
        utf8(vector.salt),
        vector.params,
        vector.key.length / 2,
      )
      expect(hex(key)).toBe(vector.key)
    },
  )

  it("hashes a password that the other path verifies, with the default parameters", async () => {
    const other = backend === "node" ? "portable" : "node"
    useScryptBackend(backend)
    const hash = await hashPassword("pâte brisée ﬁne") // NFKC folds the ligature
    useScryptBackend(other)
    expect(await verifyPassword("pâte brisée fine", hash)).toEqual({ ok: true, needsRehash: false })
    expect((await verifyPassword("pâte brisée", hash)).ok).toBe(false)
  })
})

describe("the portable path under concurrency", () => {
  it("derives several at once, each right (one after another on its thread)", async () => {
    useScryptBackend("portable")
    const params = { ln: 12, r: 8, p: 1 }
    const limits = { concurrency: 4, queue: 4 }
    const passwords = ["one", "two", "three", "four"]
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p, params, { limits })))
    useScryptBackend("node")
    for (const [i, hash] of hashes.entries()) {
      expect((await verifyPassword(passwords[i]!, hash, params)).ok).toBe(true)
      expect((await verifyPassword(passwords[(i + 1) % 4]!, hash, params)).ok).toBe(false)
    }
  })
})

describe("the portable path's memory", () => {
  it("keeps one table: later derivations, at the default cost or below, allocate none", async () => {
    // workerd did not collect a table per derivation: nine in one isolate held 265 MiB.
    useScryptBackend("portable")
    const salt = new Uint8Array(16)
    await deriveScrypt("first", salt, DEFAULT_SCRYPT, 32)
    const afterFirst = tablesAllocated()
    for (const params of [DEFAULT_SCRYPT, { ln: 12, r: 8, p: 1 }, DEFAULT_SCRYPT]) {
      await deriveScrypt("again", salt, params, 32)
    }
    expect(tablesAllocated()).toBe(afterFirst)
  })
})

describe("the implementation chosen", () => {
  it("is node:crypto's on Node.js, which derives RFC 7914's vector", async () => {
    expect(await scryptBackend()).toBe("node")
  })

  it("is reported as forced while a test forces it", async () => {
    useScryptBackend("portable")
    expect(await scryptBackend()).toBe("portable")
    useScryptBackend(undefined)
    expect(await scryptBackend()).toBe("node")
  })
})

describe("the bytes of a hash without Buffer", () => {
  it("writes and reads base64 without padding, as Buffer does", () => {
    for (let length = 0; length < 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length))
      const text = encodeBase64(bytes)
      expect(text).toBe(Buffer.from(bytes).toString("base64").replace(/=+$/, ""))
      expect(decodeBase64(text)).toEqual(bytes)
    }
    // base64url's characters are not base64's: not a hash of ours.
    expect(decodeBase64("ab-_")).toBeUndefined()
    expect(decodeBase64("abcde")).toBeUndefined()
  })

  it("compares keys byte by byte", () => {
    const a = Uint8Array.of(1, 2, 3, 4)
    expect(sameBytes(a, Uint8Array.of(1, 2, 3, 4))).toBe(true)
    expect(sameBytes(a, Uint8Array.of(1, 2, 3, 5))).toBe(false)
    expect(sameBytes(a, Uint8Array.of(0, 2, 3, 4))).toBe(false)
    expect(sameBytes(a, Uint8Array.of(1, 2, 3))).toBe(false)
  })
})

/**
 * What a runtime gives before the program is loaded: none of node:crypto, Buffer and process
 * (workerd without `nodejs_compat`, Vercel's edge runtime), or a node:crypto whose scrypt is a
 * stub that throws, derives wrong bytes, or refuses parameters past a memory limit (compatibility
 * layers of several ages).
 */
const RUNTIMES = {
  "no node:crypto, Buffer or process": `delete globalThis.Buffer
delete globalThis.process`,
  "a scrypt that throws": withScrypt(`() => { throw new Error("scrypt is not implemented") }`),
  "a scrypt that derives wrong bytes": withScrypt(
    `(password, salt, length, options, callback) => callback(null, crypto.randomBytes(length))`,
  ),
  "a scrypt that refuses 32 MiB": withScrypt(`(password, salt, length, options, callback) =>
    options.N > 2 ** 14 ? callback(new Error("memory limit exceeded")) : crypto.scrypt(password, salt, length, options, callback)`),
}

function withScrypt(scrypt: string) {
  return `const builtin = process.getBuiltinModule
const crypto = builtin("node:crypto")
process.getBuiltinModule = (id) => id === "node:crypto" ? { ...crypto, scrypt: ${scrypt} } : builtin(id)`
}

describe("on a runtime without a working node:crypto scrypt", () => {
  const dir = mkdtempSync(join(tmpdir(), "latch-portable-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const provider = fileURLToPath(new URL("../../src/providers/password.ts", import.meta.url))
  const scrypt = fileURLToPath(new URL("../../src/password/scrypt.ts", import.meta.url))
  const bundle = join(dir, "program.mjs")
  let stored: string

  beforeAll(async () => {
    // A program as a Worker would run it: the provider's module, bundled for no platform in
    // particular, so that an import of a node: module fails the build.
    const program = join(dir, "program.ts")
    writeFileSync(
      program,
      `import { hashPassword, verifyPassword } from ${JSON.stringify(provider)}
import { scryptBackend } from ${JSON.stringify(scrypt)}
const [stored] = JSON.parse(globalThis.LATCH_INPUT)
const made = await hashPassword("correct horse battery staple")
const result = {
  globals: [typeof Buffer, typeof process],
  made,
  fromNode: await verifyPassword("correct horse battery staple", stored),
  wrong: await verifyPassword("correct horse battery stapler", stored),
  backend: await scryptBackend(),
}
globalThis.LATCH_OUTPUT(JSON.stringify(result))
`,
    )
    await build({
      entryPoints: [program],
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      outfile: bundle,
      logLevel: "silent",
    })
    stored = await hashPassword("correct horse battery staple")
  })

  it.each(Object.entries(RUNTIMES))(
    "with %s: hashes on the portable path, verifies node:crypto's hashes, and the reverse",
    async (name, setup) => {
      // The runtime is set up before the program is loaded; the program writes its answer
      // through a function kept aside.
      const start = join(dir, `start-${name.replace(/\W+/g, "-")}.mjs`)
      writeFileSync(
        start,
        `import { writeSync } from "node:fs"
globalThis.LATCH_INPUT = ${JSON.stringify(JSON.stringify([stored]))}
globalThis.LATCH_OUTPUT = (text) => writeSync(1, text)
${setup}
await import(${JSON.stringify(bundle)})
`,
      )
      const run = spawnSync(process.execPath, [start], { encoding: "utf8", timeout: 60_000 })
      expect(run.stderr).toBe("")
      const result = JSON.parse(run.stdout)
      if (name.startsWith("no node:crypto"))
        expect(result.globals).toEqual(["undefined", "undefined"])
      expect(result.backend).toBe("portable")
      expect(result.fromNode).toEqual({ ok: true, needsRehash: false })
      expect(result.wrong.ok).toBe(false)
      // The hash made there verifies here, on node:crypto.
      expect(result.made).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/)
      expect(await verifyPassword("correct horse battery staple", result.made)).toEqual({
        ok: true,
        needsRehash: false,
      })
    },
  )
})
