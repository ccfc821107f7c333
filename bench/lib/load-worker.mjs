// The load generator of bench/http.mjs, forked as its own process so that generating load
// competes neither with the servers nor with the runner. Each message `{ id, url, headers,
// connections, duration }` runs one autocannon measurement; the answer is `{ id, result }` or
// `{ id, error }`.
import autocannon from "autocannon"

process.on("message", async ({ id, url, headers, connections, duration }) => {
  try {
    const result = await autocannon({ url, headers, connections, duration, pipelining: 1 })
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
      },
    })
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) })
  }
})

// The runner's end closes the channel: leave with it.
process.on("disconnect", () => process.exit(0))
