// The server of bench/password-flood.mjs: `Auth()` of @latch/core behind node:http, with one
// Password provider at its defaults (scrypt parameters and hashing limits), an adapter in memory
// holding one verified account, and mails kept in memory. Its counters always answer 1: no rate
// limit or budget stops a request, so that every sign-up reaches the hashing limiter (the worst
// case: an attacker with clients and addresses enough to stay under every budget). Prints one
// line of JSON once listening: `{ port, hashing, scrypt }`.
import { createServer } from "node:http"
import { Auth } from "@latch/core"
import Password, { hashPassword, passwordSettings } from "@latch/core/providers/password"

export const USER = { email: "alice@example.com", password: "correct horse battery staple" }

const provider = Password({ rateLimit: false, sendMail: () => {} })
const users = new Map([
  [USER.email, { id: "1", email: USER.email, emailVerified: new Date("2026-01-01") }],
])
const passwords = new Map([["1", await hashPassword(USER.password)]])
const tokens = new Map()

const config = {
  secret: process.env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt" },
  adapter: {
    getUserByEmail: (email) => users.get(email) ?? null,
    getUser: (id) => [...users.values()].find((user) => user.id === id) ?? null,
    getPasswordHash: (userId) => passwords.get(userId) ?? null,
    setPasswordHash: (userId, hash) => void passwords.set(userId, hash),
    createVerificationToken: (token) => void tokens.set(token.token, token),
    useVerificationToken: ({ token }) => {
      const found = tokens.get(token) ?? null
      tokens.delete(token)
      return found
    },
    incrementCounter: () => 1,
  },
  providers: [provider],
  // Errors go to stderr, which the runner shows when an answer is not the expected one.
  logger: { error: (error) => console.error(error), warn() {}, debug() {} },
}

/** The request as a `Request`, the body read whole (forms are small). */
async function toRequest(incoming, origin) {
  const chunks = []
  for await (const chunk of incoming) chunks.push(chunk)
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    if (typeof value === "string") headers.set(name, value)
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  return new Request(new URL(incoming.url, origin), { method: incoming.method, headers, body })
}

const server = createServer(async (incoming, outgoing) => {
  try {
    const origin = `http://${incoming.headers.host}`
    const response = await Auth(await toRequest(incoming, origin), config, {
      clientAddress: incoming.socket.remoteAddress,
    })
    const headers = {}
    for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value
    const cookies = response.headers.getSetCookie()
    if (cookies.length) headers["set-cookie"] = cookies
    outgoing.writeHead(response.status, headers)
    outgoing.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    outgoing.writeHead(500).end(String(error))
  }
})
server.keepAliveTimeout = 60_000

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { hashing, scrypt } = provider[passwordSettings]
  console.log(JSON.stringify({ port: server.address().port, hashing, scrypt }))
})
