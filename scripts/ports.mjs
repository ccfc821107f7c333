// Ports for the servers the tests and checks start on 127.0.0.1.
//
// A port is chosen, probed and closed, and only later bound by the server (another process, often
// after a build). Taken from the kernel's ephemeral range (bind to port 0), it can be handed
// to any other socket in between: a Miniflare or Vite instance binding an internal server to port
// 0 would then answer the requests meant for ours (a 404 for everything). So ports come from
// below that range, where the kernel never assigns one on its own, at random so that parallel
// processes rarely meet, and each is probed before it is returned.
import { readFileSync } from "node:fs"
import { createServer } from "node:net"

/** The lowest port the kernel assigns on its own (Linux: ip_local_port_range; IANA elsewhere). */
function ephemeralLow() {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)
    return Number(low)
  } catch {
    return 49152
  }
}

const LOWEST = 10_000
const handedOut = new Set()

/** Whether `port` can be bound on 127.0.0.1 now (0: the kernel's choice); resolves the port. */
function probe(port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(null))
    server.listen(port, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : null))
    })
  })
}

/**
 * A port nothing listens on now, on 127.0.0.1, outside the ephemeral range and not returned
 * before by this process.
 * @returns {Promise<number>}
 */
export async function freePort() {
  const high = ephemeralLow() - 1
  if (high - LOWEST >= 1000) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1))
      if (handedOut.has(port)) continue
      if ((await probe(port)) === port) {
        handedOut.add(port)
        return port
      }
    }
  }
  // A machine whose ephemeral range starts low: the kernel's choice, as before.
  const port = await probe(0)
  if (port === null) throw new Error("no free port on 127.0.0.1")
  return port
}
