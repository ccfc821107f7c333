/**
 * The demo's Credentials user. Checked with Web Crypto alone, which every runtime here has: the
 * typed password and the expected one are both HMAC'd under a random key and the digests
 * compared, so the comparison takes the same time wherever they differ. A real app checks a
 * stored password hash instead (or uses the Password provider, which does).
 */
const DEMO_USER = { id: "alice", name: "Alice Liddell", email: "alice@example.com" }
const DEMO_USERNAME = "alice"
const DEMO_PASSWORD = "wonderland"

const encoder = new TextEncoder()
let key: Promise<CryptoKey> | undefined

async function digest(text: string): Promise<Uint8Array> {
  key ??= crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  return new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(text)))
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i] ?? 0)
  return difference === 0
}

/** The demo user when the username and password match, else `null`. */
export async function checkDemoUser(username: unknown, password: unknown) {
  const [given, expected] = await Promise.all([
    digest(
      `${String(username ?? "")
        .trim()
        .toLowerCase()}\u0000${String(password ?? "")}`,
    ),
    digest(`${DEMO_USERNAME}\u0000${DEMO_PASSWORD}`),
  ])
  return sameBytes(given, expected) ? { ...DEMO_USER } : null
}
