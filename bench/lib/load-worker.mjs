// The load generator of bench/http.mjs, forked as its own process so that generating load
// competes neither with the servers nor with the runner. Each message runs one autocannon
// measurement and is answered `{ id, result }` or `{ id, error }`:
//
// - `{ id, url, headers, connections, duration }`: GET `url` over and over for `duration` s;
// - `{ id, url, paths, headers, connections, duration }`: GET each of `paths` of `url`'s origin in
//   turn, on every connection;
// - `{ id, signIn: { cookieName, csrf }, url, connections, duration }`: sign-ins over and over,
//   each a form-encoded `POST /auth/callback/credentials` with an `Origin` header, after a
//   `GET /auth/csrf` when `csrf` (whose cookies, and CSRF token if its body has one, the POST
//   carries), as a browser does. A sign-in counts when the POST answers a redirect setting a
//   non-empty `cookieName`. Each sign-in is of the next of `USERS` accounts (`alice-0`, …), so
//   that the sign-ins in flight at once are of different accounts, as on a real site.
import autocannon from "autocannon"

/** The accounts signed in to in turn: far more than sign-ins in flight at once. */
const USERS = 1000
let nextUser = 0

/** The `name=value` pairs of the Set-Cookie headers autocannon hands to `onResponse`. */
function cookiesOf(headers) {
  const pairs = []
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== "set-cookie") continue
    for (const header of [value].flat()) pairs.push(header.split(";", 1)[0].trim())
  }
  return pairs
}

/** The autocannon requests of one sign-in, counting successes and failures in `tally`. */
function signInRequests(origin, { cookieName, csrf }, tally) {
  const fetchToken = {
    method: "GET",
    path: "/auth/csrf",
    onResponse(status, body, context, headers) {
      try {
        context.csrfToken = JSON.parse(body).csrfToken
      } catch {
        context.csrfToken = undefined
      }
      context.cookie = cookiesOf(headers).join("; ")
    },
  }
  const post = {
    method: "POST",
    path: "/auth/callback/credentials",
    setupRequest(request, context) {
      return {
        ...request,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin,
          ...(context.cookie ? { cookie: context.cookie } : {}),
        },
        body: new URLSearchParams({
          ...(context.csrfToken ? { csrfToken: context.csrfToken } : {}),
          username: `alice-${nextUser++ % USERS}`,
          password: "x",
        }).toString(),
      }
    },
    onResponse(status, body, context, headers) {
      const session = cookiesOf(headers).find((pair) => pair.startsWith(`${cookieName}=`))
      if (status >= 300 && status < 400 && session && session !== `${cookieName}=`) {
        tally.signIns++
      } else {
        tally.failed++
        tally.lastFailure = `status ${status}, cookies ${cookiesOf(headers).join(" | ")}`
      }
    },
  }
  return csrf ? [fetchToken, post] : [post]
}

process.on("message", async ({ id, url, paths, headers, connections, duration, signIn }) => {
  try {
    const tally = { signIns: 0, failed: 0, lastFailure: undefined }
    const options = { url, headers, connections, duration, pipelining: 1 }
    if (signIn) options.requests = signInRequests(new URL(url).origin, signIn, tally)
    else if (paths) options.requests = paths.map((path) => ({ method: "GET", path }))
    const result = await autocannon(options)
    const statusCodes = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    )
    process.send({
      id,
      result: {
        // Every response counts as a completed request, whatever its status (e.g. a 303).
        requests: result.requests.total,
        seconds: result.duration,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes,
        ...(signIn ? tally : {}),
      },
    })
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) })
  }
})

// The runner's end closes the channel: leave with it.
process.on("disconnect", () => process.exit(0))
