// A minimal Latch app on Node's http server: /auth/* is answered by Auth(), every other page
// reads the session with getSession(). Run it with `pnpm --filter latch-minimal-example start`
// after `pnpm run build` at the repository root. Behind a reverse proxy, see request.mjs for the
// settings that say which headers your proxy sets (ORIGIN, HOST_HEADER, ADDRESS_HEADER…).
import { createServer } from "node:http"
import { pathToFileURL } from "node:url"
import { Auth, getSession } from "@latch/core"
import Credentials from "@latch/core/providers/credentials"
import { stringifySetCookie } from "cookie"
import { clientAddressOf, settingsFrom, toRequest } from "./request.mjs"
import { checkPassword } from "./users.mjs"

const host = process.env.HOST ?? "127.0.0.1"
const port = Number(process.env.PORT ?? 3000)

const config = {
  // The Request's URL is built from this deployment's settings (request.mjs), never from a
  // forwarding header nobody named, so its origin may name the site.
  trustHost: true,
  theme: { brandColor: "#4f46e5", colorScheme: "auto" },
  providers: [
    Credentials({
      name: "password",
      credentials: {
        username: { label: "Username", placeholder: "alice" },
        password: { label: "Password", type: "password", placeholder: "wonderland" },
      },
      authorize: ({ username, password }) => checkPassword(username, password),
    }),
  ],
}

async function send(res, response) {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader("set-cookie", cookies)
  res.end(Buffer.from(await response.arrayBuffer()))
}

const escape = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function home(session) {
  const who = session?.user
    ? `<p>Signed in as <strong>${escape(session.user.name)}</strong> (${escape(session.user.email)}).</p>
       <p><a class="button" href="/auth/signout">Sign out</a></p>`
    : `<p>You are not signed in. Try <code>alice</code> / <code>wonderland</code>.</p>
       <p><a class="button" href="/auth/signin">Sign in</a></p>`
  return `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Latch</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
.button{display:inline-block;background:#4f46e5;color:#fff;padding:.6rem 1.1rem;border-radius:.5rem;text-decoration:none}
code{background:#f3f4f6;padding:.1rem .3rem;border-radius:.25rem}pre{background:#f3f4f6;padding:1rem;border-radius:.5rem;overflow:auto}</style>
<h1>Latch minimal example</h1>${who}
<h2>Session</h2><pre>${escape(JSON.stringify(session, null, 2))}</pre></html>`
}

/** The request listener: Latch's actions under /auth, the home page, 404 elsewhere. */
export const createHandler = (settings = settingsFrom(process.env)) =>
  async function handle(req, res) {
    try {
      const request = toRequest(req, settings)
      if (!request) return await send(res, new Response("Bad request", { status: 400 }))
      const { pathname } = new URL(request.url)
      if (pathname.startsWith("/auth/")) {
        const clientAddress = clientAddressOf(req, settings)
        return await send(res, await Auth(request, config, { clientAddress }))
      }
      if (pathname !== "/") return await send(res, new Response("Not found", { status: 404 }))
      const { session, cookies } = await getSession(request, config)
      const response = new Response(home(session), {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      })
      for (const cookie of cookies) {
        response.headers.append(
          "set-cookie",
          stringifySetCookie(cookie.name, cookie.value, cookie.options),
        )
      }
      await send(res, response)
    } catch (error) {
      console.error(error)
      res.statusCode = 500
      res.end("Internal error")
    }
  }

// Started as a program (the tests import it instead).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  createServer(createHandler()).listen(port, host, () => {
    console.log(`\n  Latch example running at http://${host}:${port}\n`)
  })
}
